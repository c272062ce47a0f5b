import type { FormEvent } from 'react';
import { create } from 'zustand';
import { isDesktop, pickFolder, request, subscribe } from '../../api';
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
  /** Why the last bucket added could not be read, shown until the address is edited. */
  error: string | null;
  setPath(path: string): void;
  setEndpoint(endpoint: string): void;
  setError(error: string | null): void;
}>((set) => ({
  path: '',
  endpoint: '',
  error: null,
  setPath: (path) => set({ path, error: null }),
  setEndpoint: (endpoint) => set({ endpoint, error: null }),
  setError: (error) => set({ error }),
}));

const isBucket = (text: string) => /^s3:\/\//i.test(text.trim());

/**
 * A bucket that cannot be listed (unreachable endpoint, no credentials, no such bucket) is a
 * problem of the indexing pass, not a refusal of the request, and the pass ends "done". Wait
 * for it, and say why next to the box the address was typed in rather than only on Problems.
 */
function watchBucket(address: string, onProblem: (message: string) => void): () => void {
  const prefix = address.replace(/\/+$/, '');
  const off = subscribe('job:finished', ({ job }) => {
    if (job.kind !== 'index') return;
    off();
    void bucketProblem(prefix).then((message) => message && onProblem(message));
  });
  return off;
}

/** The problem of the pass under `prefix`; none when the list cannot be read (Problems has it). */
async function bucketProblem(prefix: string): Promise<string | null> {
  try {
    const problems = await request('library:problems', {});
    const problem = problems.find((p) => p.path === prefix || p.path.startsWith(`${prefix}/`));
    return problem ? `${problem.path}: ${problem.message}` : null;
  } catch {
    return null;
  }
}

/**
 * Desktop: the native picker. Browser host: a path typed on the machine that runs Pairwise.
 * Both take an s3://bucket/prefix address, with the endpoint of an S3-compatible store.
 */
export function AddFolder() {
  const { path, endpoint, error, setPath, setEndpoint, setError } = useDraft();
  const toast = useApp((s) => s.toast);
  const { readOnly, locked } = useReadOnly();

  const add = async (folder: string, endpointUrl?: string) => {
    setError(null);
    const stopWatching = isBucket(folder) ? watchBucket(folder.trim(), setError) : undefined;
    try {
      await request('library:addFolder', { path: folder, watch: true, endpoint: endpointUrl });
      // The pass may have failed already: its message stays while the boxes empty.
      useDraft.setState({ path: '', endpoint: '' });
    } catch (error) {
      stopWatching?.();
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
          placeholder="endpoint (MinIO, R2…); empty for AWS"
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
      {error && (
        <p className="add-folder-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
