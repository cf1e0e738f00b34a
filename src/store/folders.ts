/** Folders the store makes for its files: the database's, a backup's. */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { StoreError } from './errors.js';

/**
 * Makes `dir` and the missing folders above it, one at a time, each with `mode` (an existing
 * folder is the operator's to set). Not Node's `mkdirSync(…, { recursive: true })`: under a folder
 * that refuses new entries with ENOENT, as /proc does, that loops for ever at full CPU and deaf to
 * every signal. `what` names the file the folder is for, in the refusal.
 */
export function makeFolders(dir: string, mode: number, what: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !existsSync(at); at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      const why =
        code === 'EACCES' || code === 'EPERM'
          ? 'no permission to create it'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : code === 'ENOTDIR'
              ? 'a file is in the way of it'
              : `the system refused (${code ?? (error as Error).message})`;
      throw new StoreError(`cannot create the folder ${folder} for ${what}: ${why}`, { lasting: true });
    }
  }
}
