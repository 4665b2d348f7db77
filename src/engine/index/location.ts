/** Where an index is kept: in the user's cache directory by default, never inside a workspace folder. */
import { createHash } from 'crypto';
import { homedir } from 'os';
import * as nodePath from 'path';
import { InputError } from '../api/errors';
import { HOST_FLAVOUR, isInside, type PathFlavour } from '../guard/paths';

/** The user's cache directory: XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%, else ~/.cache. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.XDG_CACHE_HOME && nodePath.isAbsolute(env.XDG_CACHE_HOME)) return env.XDG_CACHE_HOME;
  if (platform === 'darwin') return nodePath.join(homedir(), 'Library', 'Caches');
  if (platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  return nodePath.join(homedir(), '.cache');
}

/**
 * The default index directory of a set of workspace folders (one per set, named by a hash of their
 * paths). Under Windows rules the paths are hashed lower-cased, as Windows names the same folder in any
 * case: VS Code gives `c:\ws`, a command line `C:\ws`, and both must find the one index (and its `serve`).
 */
export function defaultIndexDir(folders: readonly string[], cacheDir = userCacheDir(), flavour: PathFlavour = nodePath): string {
  const key = flavour.sep === '\\' ? folders.map((folder) => flavour.resolve(folder).toLowerCase()) : folders;
  const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 16);
  return flavour.join(cacheDir, 'grep-tools', 'index', hash);
}

/** Refuses an index directory inside a workspace folder: nothing is ever written in the workspace. */
export function checkIndexDir(dir: string, folders: readonly string[], flavour: PathFlavour = HOST_FLAVOUR): void {
  const inside = folders.find((folder) => isInside(dir, folder, flavour));
  if (inside !== undefined) {
    throw new InputError(
      `The index directory ${dir} is inside the workspace folder ${inside}, and nothing is written in the workspace. Pass an --index-dir outside it, or leave it out to use ${defaultIndexDir(folders, undefined, flavour)}.`,
    );
  }
}
