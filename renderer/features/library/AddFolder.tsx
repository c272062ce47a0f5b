import type { FormEvent } from 'react';
import { create } from 'zustand';
import { isDesktop, pickFolder, request } from '../../api';
import { useApp } from '../../store';
import { useReadOnly } from '../../useReadOnly';

/**
 * The typed path outlives the box it was typed in: the empty library's box gives way to the
 * toolbar's as soon as runs arrive (an index finishing meanwhile), and a half-typed path must
 * not vanish with it.
 */
const useDraft = create<{ path: string; setPath(path: string): void }>((set) => ({
  path: '',
  setPath: (path) => set({ path }),
}));

/** Desktop: the native picker. Browser host: a path typed on the machine that runs Pairwise. */
export function AddFolder() {
  const { path, setPath } = useDraft();
  const toast = useApp((s) => s.toast);
  const { readOnly, locked } = useReadOnly();

  const add = async (folder: string) => {
    try {
      await request('library:addFolder', { path: folder, watch: true });
      setPath('');
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void add(path.trim());
  };

  return (
    <form className="add-folder" onSubmit={submit}>
      {isDesktop ? (
        <button
          type="button"
          className="primary"
          {...locked}
          onClick={() =>
            void pickFolder().then((folder) => {
              if (folder) void add(folder);
            })
          }
        >
          Add folder…
        </button>
      ) : (
        <>
          <input
            aria-label="Folder path"
            placeholder="/path/to/runs"
            value={path}
            {...locked}
            onChange={(e) => setPath(e.target.value)}
          />
          <button type="submit" className="primary" {...locked} disabled={readOnly || !path.trim()}>
            Add folder
          </button>
        </>
      )}
    </form>
  );
}
