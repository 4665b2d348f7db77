/** Test helper: a workspace folder of small aged sources to index, and the storage directory beside it. */
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { age } from './age';

export interface BuildFolder {
  /** The temporary directory holding both. */
  root: string;
  /** The workspace folder: `f0.ts` … each exporting one constant. */
  folder: string;
  /** Where the index is kept. */
  dir: string;
  /** The folder's files, in order. */
  paths: string[];
}

export function buildFolder(prefix: string, files: number): BuildFolder {
  const root = fs.mkdtempSync(nodePath.join(os.tmpdir(), prefix));
  const folder = nodePath.join(root, 'ws');
  fs.mkdirSync(folder);
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const path = nodePath.join(folder, `f${i}.ts`);
    fs.writeFileSync(path, `export const value${i} = ${i};\n`);
    paths.push(path);
  }
  age(folder);
  return { root, folder, dir: nodePath.join(root, 'storage'), paths };
}
