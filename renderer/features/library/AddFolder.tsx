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
const useDraft = create<{
  path: string;
  endpoint: string;
  setPath(path: string): void;
  setEndpoint(endpoint: string): void;
}>((set) => ({
  path: '',
  endpoint: '',
  setPath: (path) => set({ path }),
  setEndpoint: (endpoint) => set({ endpoint }),
}));

const isBucket = (text: string) => /^s3:\/\//i.test(text.trim());

/**
 * Desktop: the native picker. Browser host: a path typed on the machine that runs Pairwise.
 * Both take an s3://bucket/prefix address, with the endpoint of an S3-compatible store.
 */
export function AddFolder() {
  const { path, endpoint, setPath, setEndpoint } = useDraft();
  const toast = useApp((s) => s.toast);
  const { readOnly, locked } = useReadOnly();

  const add = async (folder: string, endpointUrl?: string) => {
    try {
      await request('library:addFolder', { path: folder, watch: true, endpoint: endpointUrl });
      setPath('');
      setEndpoint('');
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = path.trim();
    if (typed) void add(typed, isBucket(typed) ? endpoint.trim() || undefined : undefined);
  };

  return (
    <form className="add-folder" onSubmit={submit}>
      {isDesktop && (
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
      )}
      <input
        aria-label={isDesktop ? 'Bucket address' : 'Folder path'}
        placeholder={isDesktop ? 'or s3://bucket/prefix' : '/path/to/runs or s3://bucket/prefix'}
        value={path}
        {...locked}
        onChange={(e) => setPath(e.target.value)}
      />
      {isBucket(path) && (
        <input
          aria-label="S3 endpoint"
          placeholder="endpoint URL (MinIO, R2…); empty for AWS"
          value={endpoint}
          {...locked}
          onChange={(e) => setEndpoint(e.target.value)}
        />
      )}
      {(!isDesktop || path.trim()) && (
        <button
          type="submit"
          className={isDesktop ? undefined : 'primary'}
          {...locked}
          disabled={readOnly || !path.trim()}
        >
          {isDesktop ? 'Add' : 'Add folder'}
        </button>
      )}
    </form>
  );
}
