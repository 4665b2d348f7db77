/**
 * Watches the directories of a recorded listing, one non-recursive watch each (Node's recursive watch
 * on Linux puts one on every file), and remembers what changed since it was last reset: the paths an
 * event named (their content may differ from the index's), and whether the tree's shape may have
 * changed (an entry appeared, went or was renamed, a .gitignore or a directory changed, or a watch
 * failed), which makes the recorded listing unusable until it is recorded again; and whether so many
 * events came that the kernel may have dropped some (then nothing is vouched for).
 */
import { readFileSync, watch, type FSWatcher } from 'fs';
import type { ContentIndex } from './contentIndex';
import { below } from '../guard/paths';
import { aTurn, finishSteps, finishStepsInSlices, TimeSlices, type Steps } from '../source/timeSlices';

/** Places one watch on a directory (fs.watch; a test can make it fail as a full inotify table does). */
export type WatchDirectory = (dir: string, listener: (event: string, name: string | Buffer | null) => void) => FSWatcher;

const watchDirectory: WatchDirectory = (dir, listener) => watch(dir, { persistent: false }, listener);

export interface TreeChanges {
  /** Paths an event named since the reset, each with the number of the last event that named it (no more are kept once overflowed). */
  touched: Map<string, number>;
  /** Whether the listing may no longer be the tree's. */
  structural: boolean;
  /** Events since the reset. */
  events: number;
  /**
   * So many events since the reset that the kernel's queue may have overflowed and dropped some (an
   * overflow does not reach fs.watch's listeners): no file is vouched for, and the listing is not either.
   */
  overflowed: boolean;
}

/**
 * The number of events past which the kernel may have dropped some: half the inotify queue's size
 * (`fs.inotify.max_queued_events`, 16,384 by default). A queue overflows only once that many events wait
 * in it, and all of them are then delivered, so a record that saw an overflow counts at least that many.
 */
export function overflowThreshold(): number {
  let queued = 16_384;
  try {
    queued = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || queued;
  } catch {
    // Not Linux, or /proc not mounted: the default.
  }
  return Math.max(1, Math.floor(queued / 2));
}

const noChanges = (): TreeChanges => ({ touched: new Map(), structural: false, events: 0, overflowed: false });

export class TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private changes = noChanges();
  /** A record kept beside the current one (`reset`'s `keep`): the index a refresh is replacing is vouched for by it meanwhile. */
  private kept?: TreeChanges;
  private placedOrClosed = 0;
  /** Counts the changes of the tree's shape ever seen (not reset): a listing checked under one value still holds under it. */
  private shapes = 0;

  /** `onChange` runs after each event (a refresh can be scheduled there). */
  constructor(
    private readonly onChange: () => void,
    private readonly overflowAt = overflowThreshold(),
    private readonly watchOne: WatchDirectory = watchDirectory,
  ) {}

  /** What changed since the last reset. */
  get current(): Readonly<TreeChanges> {
    return this.changes;
  }

  /**
   * Starts a new record of changes (a refresh is about to read the tree) and returns it. `listedAt`: the
   * `shapeMark` read as the listing this record follows began; when the mark moved since (an entry
   * appeared or went while the tree was listed, maybe after the listing read its directory), the new
   * record starts with the shape changed, so the next refresh lists again. `keep`: a record that goes on
   * recording beside the new one (that of the index the refresh replaces, vouched for by it until then);
   * any other earlier record stops.
   */
  reset(listedAt?: number, keep?: Readonly<TreeChanges>): Readonly<TreeChanges> {
    const moved = listedAt !== undefined && listedAt !== this.shapeMark;
    this.kept = keep === this.changes || keep === this.kept ? (keep as TreeChanges) : undefined;
    this.changes = noChanges();
    if (moved) this.changes.structural = true;
    return this.changes;
  }

  /** Stops the record kept beside the current one (its index was replaced). */
  release(): void {
    this.kept = undefined;
  }

  /**
   * Drops from a record (the current one unless given) the paths read again since its event number `upTo`
   * (a refresh of these files began after it): a path an event named after that stays, since it may have
   * changed after it was read.
   */
  forget(paths: Iterable<string>, upTo: number, record: Readonly<TreeChanges> = this.changes): void {
    const { touched } = record;
    for (const path of paths) {
      const last = touched.get(path);
      if (last !== undefined && last <= upTo) touched.delete(path);
    }
  }

  /**
   * Watches exactly these directories: new ones are added, the others closed; returns how many were
   * added. A directory gone since the listing was recorded (removed while a refresh read the tree) is a
   * change of the tree's shape, reported as an event is. Throws the system's error when a watch cannot
   * be placed for another reason (ENOSPC: the inotify watch limit), having closed the watches this
   * call placed (the ones it kept stay).
   */
  watch(directories: Iterable<string>): number {
    return finishSteps(this.placing(this.keepOnly(directories)));
  }

  /** `watch`, a slice at a time (timeSlices.ts): the tens of thousands of directories of a large tree do not hold the thread. */
  async watchInSlices(directories: Iterable<string>, slices = new TimeSlices()): Promise<number> {
    return await finishStepsInSlices(this.placing(this.keepOnly(directories)), slices);
  }

  /** Watches these directories too, the others staying, a slice at a time; a refusal closes only the watches this call placed. Returns how many were added. */
  async addInSlices(directories: Iterable<string>, slices = new TimeSlices()): Promise<number> {
    return await finishStepsInSlices(this.placing(directories), slices);
  }

  /** Places the watches of these directories (`place`), one step each; how many were added. */
  private *placing(directories: Iterable<string>): Steps<number> {
    const added: string[] = [];
    for (const dir of directories) {
      this.place(dir, added);
      yield 1;
    }
    return added.length;
  }

  /** Closes the watches of directories not in `directories`; the set of them. */
  private keepOnly(directories: Iterable<string>): Set<string> {
    const wanted = new Set(directories);
    for (const dir of [...this.watchers.keys()]) if (!wanted.has(dir)) this.unwatch(dir);
    return wanted;
  }

  /** Watches one directory unless it is already (`watch`), adding it to `added`; on an error other than its being gone, closes those and throws. */
  private place(dir: string, added: string[]): void {
    if (this.watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = this.watchOne(dir, (event, name) => this.event(dir, event, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        for (const placed of added) this.unwatch(placed);
        throw error;
      }
      this.shapeChanged();
      this.onChange();
      return;
    }
    watcher.on('error', () => {
      this.unwatch(dir);
      this.shapeChanged();
      this.onChange();
    });
    this.watchers.set(dir, watcher);
    this.placedOrClosed++;
    added.push(dir);
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
    this.placedOrClosed++;
  }

  /** Whether this directory is watched (an event in it would be seen). */
  watches(dir: string): boolean {
    return this.watchers.has(dir);
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Changes whenever a watch is placed or closed: what `watches` answered under another value may differ now. */
  get generation(): number {
    return this.placedOrClosed;
  }

  /**
   * Changes whenever the tree's shape may have changed in a watched directory (an entry appeared, went or
   * was renamed, a .gitignore or a directory changed, a watch failed, events may have been dropped), and
   * whenever a watch is closed: a listing whose directories are all watched and that was found current
   * under one value is current while the value stays.
   */
  get shapeMark(): number {
    return this.shapes * 1_000_003 + this.placedOrClosed;
  }

  private shapeChanged(): void {
    this.changes.structural = true;
    if (this.kept) this.kept.structural = true;
    this.shapes++;
  }

  private event(dir: string, event: string, name: string | Buffer | null): void {
    const entry = name?.toString();
    const path = entry === undefined ? undefined : below(dir, entry);
    this.record(this.changes, path);
    if (this.kept) this.record(this.kept, path);
    if (path === undefined || event === 'rename' || entry === '.gitignore' || this.watchers.has(path)) this.shapeChanged();
    this.onChange();
  }

  /** One event in a record: counted, its path named unless the record overflowed (then it vouches for nothing, and the shape may have changed). */
  private record(changes: TreeChanges, path: string | undefined): void {
    if (++changes.events >= this.overflowAt) {
      changes.overflowed = true;
      changes.structural = true;
      changes.touched.clear();
      this.shapes++;
    }
    if (path !== undefined && !changes.overflowed) changes.touched.set(path, changes.events);
  }

  close(): void {
    for (const dir of [...this.watchers.keys()]) this.unwatch(dir);
  }
}

/**
 * Resolves once every file event the kernel queued before the call has reached the watchers: the event
 * loop polls its descriptors (the inotify one among them) within a turn (aTurn). A search awaits it
 * before relying on the watcher, so a change completed before the search began (saved by an editor,
 * written by a terminal command) is always seen.
 */
export async function eventsDelivered(): Promise<void> {
  await aTurn();
}

/**
 * A watcher's word on the files of an index: whether it saw no change of a file since the index read it.
 * A search asks for its word on all its files at once as it begins (`word`), and then one file at a time.
 */
export interface Vouching {
  /** Whether it vouches that the file of this id is as the index read it, asked now. */
  vouches(index: ContentIndex, id: number): boolean;
  /** Its word on every file of the index now, or undefined when it vouches for none (then `vouches` is false for each). */
  word(index: ContentIndex): WatchWord | undefined;
}

/**
 * A watcher's word on every file of an index, as given at one moment: it vouches for a file when the
 * file's directory is watched (`watched`) and its path is not `named`. What `watched` answers stays while
 * `mark` and the index's ids do, so a search of the same list can reuse it; `named` is short.
 */
export interface WatchWord {
  readonly mark: number;
  /** Whether a change of the file of this id would be seen (its directory is watched). */
  watched(id: number): boolean;
  /** The paths it does not vouch for though their directories are watched: an event named them, or an audit found them changed. */
  named(): Iterable<string>;
}

/**
 * Whether a watcher vouches that an indexed file is as the index read it: the owner gives the record
 * of changes kept for this index (`recordOf`: one begun before the index read the tree, with the watches
 * in place; none while no such record holds), the file's directory is watched, no event named the file
 * in that record, no audit found it changed (`stale`), and no event can have been dropped (overflow).
 * Whether a file's directory is watched is worked out once per file, while the index's ids and the
 * watches stay.
 */
export class WatchVouching implements Vouching {
  /**
   * Whether each id's directory is watched (0: not worked out yet, 1: watched, 2: not), for one index
   * while its ids and the watches stay (a search asks for each of its files in turn); the index is not
   * kept alive for it once replaced.
   */
  private known?: { index: WeakRef<ContentIndex>; idVersion: number; generation: number; flags: Uint8Array };

  constructor(
    private readonly watcher: TreeWatcher,
    private readonly recordOf: (index: ContentIndex) => Readonly<TreeChanges> | undefined = () => watcher.current,
    private readonly stale: ReadonlySet<string> = new Set(),
  ) {}

  vouches(index: ContentIndex, id: number): boolean {
    const changes = this.recordOf(index);
    if (!changes || changes.overflowed) return false;
    if (changes.touched.size > 0 || this.stale.size > 0) {
      const path = index.pathOf(id);
      if (changes.touched.has(path) || this.stale.has(path)) return false;
    }
    return this.dirWatched(index, id);
  }

  word(index: ContentIndex): WatchWord | undefined {
    const changes = this.recordOf(index);
    if (!changes || changes.overflowed) return undefined;
    const { touched } = changes;
    const stale = this.stale;
    return {
      mark: this.watcher.generation,
      watched: (id) => this.dirWatched(index, id),
      named: () => (stale.size === 0 ? touched.keys() : [...touched.keys(), ...stale]),
    };
  }

  /** The flags of this index's ids under the watches now, started anew when either changed. */
  private flagsOf(index: ContentIndex): Uint8Array {
    const generation = this.watcher.generation;
    let known = this.known;
    if (known?.index.deref() !== index || known.idVersion !== index.idVersion || known.generation !== generation) {
      this.known = known = { index: new WeakRef(index), idVersion: index.idVersion, generation, flags: new Uint8Array(index.idLimit) };
    }
    return known.flags;
  }

  private dirWatched(index: ContentIndex, id: number): boolean {
    const flags = this.flagsOf(index);
    if (flags[id] === 0) {
      const path = index.pathOf(id);
      flags[id] = this.watcher.watches(path.slice(0, path.lastIndexOf('/'))) ? 1 : 2;
    }
    return flags[id] === 1;
  }
}
