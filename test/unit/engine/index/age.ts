/** Test helper: a tree whose times lie in the past, as files an index may rely on. */
import * as fs from 'fs';
import * as nodePath from 'path';

/** Sets every file's and directory's times an hour back: an index relies only on files that settled. */
export function age(root: string): void {
  const past = Date.now() / 1000 - 3600;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const path = nodePath.join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      if (!entry.isSymbolicLink()) fs.utimesSync(path, past, past);
    }
  };
  walk(root);
  fs.utimesSync(root, past, past);
}
