/**
 * Watches the directories of a recorded listing, one non-recursive watch each (Node's recursive watch
 * on Linux puts one on every file), and remembers what changed since it was last reset: the paths an
 * event named (their content may differ from the index's), and whether the tree's shape may have
 * changed (an entry appeared, went or was renamed, a .gitignore or a directory changed, or a watch
 * failed), which makes the recorded listing unusable until it is recorded again.
 */
import { watch, type FSWatcher } from 'fs';

export interface TreeChanges {
  /** Paths an event named since the reset. */
  touched: Set<string>;
  /** Whether the listing may no longer be the tree's. */
  structural: boolean;
}

export class TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private changes: TreeChanges = { touched: new Set(), structural: false };

  /** `onChange` runs after each event (a refresh can be scheduled there). */
  constructor(private readonly onChange: () => void) {}

  /** What changed since the last reset. */
  get current(): Readonly<TreeChanges> {
    return this.changes;
  }

  /** Starts a new record of changes (a refresh is about to read the tree). */
  reset(): void {
    this.changes = { touched: new Set(), structural: false };
  }

  /**
   * Watches exactly these directories: new ones are added, the others closed; returns how many were
   * added. Throws the system's error when a watch cannot be placed (ENOSPC: the inotify watch limit).
   */
  watch(directories: Iterable<string>): number {
    let added = 0;
    const wanted = new Set(directories);
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      const watcher = watch(dir, { persistent: false }, (event, name) => this.event(dir, event, name));
      watcher.on('error', () => {
        watcher.close();
        this.watchers.delete(dir);
        this.changes.structural = true;
        this.onChange();
      });
      this.watchers.set(dir, watcher);
      added++;
    }
    return added;
  }

  get size(): number {
    return this.watchers.size;
  }

  private event(dir: string, event: string, name: string | Buffer | null): void {
    const changes = this.changes;
    if (name === null) changes.structural = true;
    else {
      const entry = name.toString();
      const path = `${dir}/${entry}`;
      changes.touched.add(path);
      if (event === 'rename' || entry === '.gitignore' || this.watchers.has(path)) changes.structural = true;
    }
    this.onChange();
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
