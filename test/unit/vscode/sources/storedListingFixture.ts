/** Helpers shared by the stored listing's tests (storedListing.test.ts, storedListingLinks.test.ts). */
import * as nodePath from 'path';
import { listHere } from '../../../../src/engine/source/audit';
import { directoriesBelow, directoryMarks, type DirectoryWalk, type StoredListing } from '../../../../src/vscode/sources/storedListing';
import type { Fixture } from '../../fixture';

/** A walk that leaves out what `skipped` names (paths from the base), follows links, and is never cancelled. */
export function walk(skipped: readonly string[] = [], granted: readonly string[] = []): DirectoryWalk {
  return { skips: (fromBase) => skipped.includes(fromBase), followSymlinks: true, granted, listDirectories: listHere, isCancelled: () => false };
}

/** The walked directories as paths from the base ('' for the base), sorted. */
export async function walked(fixture: Fixture, options = walk()): Promise<string[] | undefined> {
  const found = await directoriesBelow(fixture.root, options);
  return found?.map((dir) => nodePath.relative(fixture.root, dir).split(nodePath.sep).join('/')).sort();
}

/** A stored listing of `fixture` as a window would keep it: its files, and marks taken now with the listing begun `startedAt`. */
export async function listingOf(fixture: Fixture, files: string[], directories: string[], startedAt: number): Promise<StoredListing> {
  return {
    files: files.map((relative) => ({ path: fixture.path(relative), relative })),
    pruned: [{ base: 0, relative: 'secret', reason: 'denied', directory: true }],
    warnings: ['a warning line'],
    startedAt,
    directories,
    held: directories.length,
    ...(await directoryMarks(directories)),
  };
}
