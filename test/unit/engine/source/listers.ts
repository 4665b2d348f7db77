/** The directory listers this system can run: by name everywhere, through /proc where it exists. */
import { directoryLister, type DirectoryLister } from '../../../../src/engine/source/directory';
import { HAS_PROC } from '../../../../src/engine/searcher/openedPath';

export const LISTERS: ReadonlyArray<{ how: string; lister: DirectoryLister }> = [
  ...(HAS_PROC ? [{ how: 'through /proc', lister: directoryLister(true) }] : []),
  { how: 'by name (no /proc)', lister: directoryLister(false) },
];
