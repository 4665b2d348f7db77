/**
 * .gitignore semantics as git applies them below a root: every directory's .gitignore applies to the
 * paths below it, a deeper file's rule (including a `!` negation) wins over a shallower one, and nothing
 * inside an ignored directory can be re-included. Rules are parsed by the `ignore` package.
 * Files above the root (and the global excludes file) are not read, as VS Code's search does not.
 */
import ignore, { type Ignore } from 'ignore';
import * as nodePath from 'path';
import type { ReadScope } from '../guard/scope';
import { readIgnoreFile, readIgnoreFileSync, skippedIgnoreNote, type IgnoreFileRead } from './ignoreFile';

export class GitignoreRules {
  private readonly rules = new Map<string, Ignore | undefined>();
  private readonly ignoredDirs = new Map<string, boolean>();

  /**
   * `hasFile(dir)` may say cheaply that a directory has no .gitignore (the walker knows its entries);
   * `read(dir)` gives a directory's .gitignore text (default: read from disk below `root`).
   */
  constructor(
    private readonly root: string,
    private readonly hasFile: (relativeDir: string) => boolean = () => true,
    private readonly read?: (relativeDir: string) => string | undefined,
  ) {}

  private rulesFor(relativeDir: string): Ignore | undefined {
    if (this.rules.has(relativeDir)) return this.rules.get(relativeDir);
    let rules: Ignore | undefined;
    if (this.hasFile(relativeDir)) {
      if (this.read) {
        const text = this.read(relativeDir);
        rules = text === undefined ? undefined : parseGitignore(text);
      } else {
        rules = loadGitignore(nodePath.join(this.root, relativeDir));
      }
    }
    this.rules.set(relativeDir, rules);
    return rules;
  }

  /**
   * Whether `relative` (a '/'-separated path below the root) is ignored by the rules of its own
   * directories, assuming none of its parent directories is ignored.
   */
  ignoresEntry(relative: string, isDirectory: boolean): boolean {
    const parts = relative.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const rules = this.rulesFor(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const result = rules.test(parts.slice(depth).join('/') + (isDirectory ? '/' : ''));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }

  /** Whether a file (or a directory) is ignored, its parent directories included. */
  ignoresFile(relative: string, isDirectory = false): boolean {
    const parts = relative.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.ignoresDirectory(parts.slice(0, i).join('/'))) return true;
    }
    return isDirectory ? this.ignoresDirectory(relative) : this.ignoresEntry(relative, false);
  }

  private ignoresDirectory(relative: string): boolean {
    let ignored = this.ignoredDirs.get(relative);
    if (ignored === undefined) {
      const slash = relative.lastIndexOf('/');
      ignored = (slash !== -1 && this.ignoresDirectory(relative.slice(0, slash))) || this.ignoresEntry(relative, true);
      this.ignoredDirs.set(relative, ignored);
    }
    return ignored;
  }
}

/** The rules of a .gitignore text. */
export function parseGitignore(text: string): Ignore {
  return ignore({ allowRelativePaths: true }).add(text);
}

/** Where ignore files may be read from (ignoreFile.ts), and where a skipped one is reported. */
export interface IgnoreFileScope {
  scope?: ReadScope;
  warn?(message: string): void;
}

function textOf(read: IgnoreFileRead, options: IgnoreFileScope): string | undefined {
  if (read.kind === 'skipped') options.warn?.(skippedIgnoreNote(read));
  return read.kind === 'text' ? read.text : undefined;
}

/** Parses `<dir>/.gitignore`, or undefined when there is none (or it is skipped: see ignoreFile.ts). */
export function loadGitignore(dir: string, options: IgnoreFileScope = {}): Ignore | undefined {
  const text = textOf(readIgnoreFileSync(dir, options.scope), options);
  return text === undefined ? undefined : parseGitignore(text);
}

/** Ignore files read at once, so none waits for another. */
const CONCURRENT_READS = 32;

/**
 * The `.gitignore` texts of root-relative directories, read without holding the caller's thread (the
 * extension host): for `GitignoreRules`' `read`, so its tests never touch the disk.
 */
export async function loadGitignoreTexts(root: string, dirs: Iterable<string>, options: IgnoreFileScope = {}): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const queue = [...dirs];
  const next = async (): Promise<void> => {
    for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
      const text = textOf(await readIgnoreFile(nodePath.join(root, dir), options.scope), options);
      if (text !== undefined) texts.set(dir, text);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_READS }, next));
  return texts;
}

/**
 * The rules in force while a walk descends: one entry per directory with a .gitignore, deepest last.
 * Testing an entry costs nothing when no .gitignore is in force.
 */
export class GitignoreStack {
  private readonly stack: Array<{ prefix: string; rules: Ignore }> = [];

  constructor(private readonly options: IgnoreFileScope = {}) {}

  /** Adds the rules of `relativeDir` (root-relative, '' for the root) when it has a .gitignore. */
  push(root: string, relativeDir: string): boolean {
    const rules = loadGitignore(nodePath.join(root, relativeDir), this.options);
    if (rules) this.stack.push({ prefix: relativeDir ? `${relativeDir}/` : '', rules });
    return rules !== undefined;
  }

  pop(): void {
    this.stack.pop();
  }

  /** Whether the root-relative entry is ignored, its parent directories being walked (so not ignored). */
  ignores(relative: string, isDirectory: boolean): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const { prefix, rules } = this.stack[i];
      const result = rules.test(relative.slice(prefix.length) + (isDirectory ? '/' : ''));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
