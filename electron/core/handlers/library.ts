import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NotFoundError } from '../errors';
import { addFolder, folderRemoval, removeFolder } from '../folders';
import { librarySummary, listProblems } from '../library';
import type { PairwiseService } from '../service';
import { addBucket } from '../sources/buckets';
import { isS3Url } from '../sources/s3-location';
import { resolveRoot } from '../sources/scan-sources';
import type { HandlersOf } from './types';

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** A folder as the library names it: an absolute path, or an s3:// address as given. */
function resolveFolder(p: string): string {
  return isS3Url(p) ? resolveRoot(p) : path.resolve(expandHome(p));
}

/** `app:*` and `library:*`: what the library holds, its folders and its problems. */
export function libraryHandlers(service: PairwiseService): HandlersOf<'app' | 'library'> {
  return {
    'app:info': () => service.info(),
    'library:summary': () => librarySummary(service.db),
    'library:problems': () => [...service.watchProblems(), ...listProblems(service.db)],
    'library:addFolder': ({ path: folder, watch, endpoint }) => {
      if (isS3Url(folder)) {
        const bucket = addBucket(service.db, folder, watch, endpoint);
        service.watchFolder(bucket.path, watch);
        return { jobId: service.startIndex([bucket.path], 'Indexing', bucket.settings) };
      }
      const resolved = path.resolve(expandHome(folder));
      if (!fs.existsSync(resolved))
        throw new NotFoundError(`There is no file or folder at ${resolved}.`);
      addFolder(service.db, resolved, watch);
      service.watchFolder(resolved, watch);
      return { jobId: service.startIndex([resolved], 'Indexing') };
    },
    'library:removeFolder': async ({ path: folder }) => {
      const resolved = resolveFolder(folder);
      await service.unwatchFolder(resolved);
      // The folder's runs leave the library with it, unless another watched folder provides
      // them too; findings keep their own frozen snapshots.
      const { removed, runs, kept } = removeFolder(service.db, resolved);
      service.changed();
      return { removed, runs, kept };
    },
    'library:folderRemoval': ({ path: folder }) => folderRemoval(service.db, resolveFolder(folder)),
    'library:openSample': () => {
      const dir = service.samplesDir();
      if (!dir || !fs.existsSync(dir))
        throw new NotFoundError('The sample library is not part of this build.');
      return { jobId: service.startIndex([dir], 'Opening the sample experiment') };
    },
  };
}
