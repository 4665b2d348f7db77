/**
 * Where a symbolic link met during a walk may lead (docs/security.md, promise 2): it is followed only
 * when its real path passes the read scope. Resolving a link only stats; nothing is opened or listed.
 */
import { statSync } from 'fs';
import { realPathOfSync } from './paths';
import { judgeReal, type ReadScope } from './scope';

/** What a link (or any path) leads to: its real path (undefined where the file system cannot tell) and its kind. */
export interface LinkTarget {
  real: string | undefined;
  directory: boolean;
  file: boolean;
}

export type LinkVerdict =
  | { kind: 'dangling' }
  | { kind: 'outside'; real: string; directory: boolean }
  | { kind: 'denied'; real: string; directory: boolean }
  | { kind: 'follow'; real: string; directory: boolean; file: boolean };

/** Where a path on disk leads (a link, or any other), or undefined when nowhere (nothing there, dangling, a loop). */
export function resolveLinkSync(link: string): LinkTarget | undefined {
  const real = realPathOfSync(link);
  if (real === undefined) return undefined;
  try {
    const stat = statSync(real);
    return { real, directory: stat.isDirectory(), file: stat.isFile() };
  } catch {
    return undefined;
  }
}

/**
 * The verdict on a resolved link: followed only when its real path passes judgeReal (in a granted
 * root, `Access.granted`; not denied, notes.txt -> .env; allowed). A target whose real path the file
 * system cannot tell (a virtual one) is where its name says: the caller judged that name already.
 */
export function linkVerdict(target: LinkTarget | undefined, scope: ReadScope, name: string): LinkVerdict {
  if (target === undefined) return { kind: 'dangling' };
  const real = target.real ?? name;
  const verdict = target.real === undefined ? undefined : judgeReal(target.real, scope, target.directory);
  if (verdict === 'outside_workspace') return { kind: 'outside', real, directory: target.directory };
  if (verdict === 'denied') return { kind: 'denied', real, directory: target.directory };
  return { kind: 'follow', real, directory: target.directory, file: target.file };
}

/** Where a symlink on disk may lead (stats only). */
export function judgeLink(link: string, scope: ReadScope): LinkVerdict {
  return linkVerdict(resolveLinkSync(link), scope, link);
}
