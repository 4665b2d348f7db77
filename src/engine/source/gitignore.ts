/**
 * .gitignore semantics as git applies them below a root: every directory's .gitignore applies to the
 * paths below it, a deeper file's rule (including a `!` negation) wins over a shallower one, and nothing
 * inside an ignored directory can be re-included. Rules are parsed by the `ignore` package, matching
 * names with the platform's case rule (`gitignoreIgnoresCase`). Files above the root (and the global
 * excludes file) are not read, as VS Code's search does not.
 */
import ignore, { type Ignore } from 'ignore';
import * as nodePath from 'path';
import type { ReadScope } from '../guard/scope';
import { mapAtMost, OPENS_AT_ONCE } from '../searcher/descriptors';
import { parentOf } from './fileSource';
import { readIgnoreFile, readIgnoreFileSync, skippedIgnoreNote, type IgnoreFileRead } from './ignoreFile';

/**
 * Whether .gitignore rules match names ignoring case on `platform`, as git does there by default: `git
 * init` sets core.ignorecase where the file system ignores case (Windows, macOS) and leaves it false on
 * Linux, where ripgrep too matches them with their case (`build/` does not hide `Build/`).
 */
export function gitignoreIgnoresCase(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/** How a set of rules is read and matched. */
export interface GitignoreOptions {
  /**
   * `hasFile(dir)` may say cheaply that a directory has no .gitignore (the walker knows its entries);
   * `read(dir)` gives a directory's .gitignore text (default: read from disk below the root). A walk
   * passes `() => false` and `add`s each text as it meets it.
   */
  hasFile?: (relativeDir: string) => boolean;
  read?: (relativeDir: string) => string | undefined;
  /** Whether names match ignoring case; default: this platform's rule (`gitignoreIgnoresCase`). */
  ignoreCase?: boolean;
}

/** The rules in force in a directory: each ancestor's (and its own) .gitignore, shallowest first. */
type Chain = ReadonlyArray<{ prefix: number; rules: Ignore }>;

const NO_RULES: Chain = [];

/**
 * The one .gitignore evaluator: the listing of VS Code's findFiles (every file tested with its parent
 * directories), the walkers (each entry as they meet it, its parents walked so not ignored) and the
 * virtual file systems (texts read through workspace.fs) all use it.
 */
export class GitignoreRules {
  private readonly rules = new Map<string, Ignore | undefined>();
  private readonly chains = new Map<string, Chain>();
  private readonly ignoredDirs = new Map<string, boolean>();
  private readonly hasFile: (relativeDir: string) => boolean;
  private readonly read?: (relativeDir: string) => string | undefined;
  /** Whether names match ignoring case (`GitignoreOptions.ignoreCase`). */
  readonly ignoreCase: boolean;

  constructor(
    private readonly root: string,
    options: GitignoreOptions = {},
  ) {
    this.hasFile = options.hasFile ?? (() => true);
    this.read = options.read;
    this.ignoreCase = options.ignoreCase ?? gitignoreIgnoresCase();
  }

  /** The .gitignore text of a root-relative directory, given before any path below it is tested. */
  add(relativeDir: string, text: string): void {
    this.rules.set(relativeDir, parseGitignore(text, this.ignoreCase));
    this.chains.clear();
    this.ignoredDirs.clear();
  }

  private rulesFor(relativeDir: string): Ignore | undefined {
    if (this.rules.has(relativeDir)) return this.rules.get(relativeDir);
    let rules: Ignore | undefined;
    if (this.hasFile(relativeDir)) {
      if (this.read) {
        const text = this.read(relativeDir);
        rules = text === undefined ? undefined : parseGitignore(text, this.ignoreCase);
      } else {
        rules = loadGitignore(nodePath.join(this.root, relativeDir), this.ignoreCase);
      }
    }
    this.rules.set(relativeDir, rules);
    return rules;
  }

  private chain(relativeDir: string): Chain {
    let chain = this.chains.get(relativeDir);
    if (chain === undefined) {
      const above = relativeDir === '' ? NO_RULES : this.chain(parentOf(relativeDir));
      const own = this.rulesFor(relativeDir);
      chain = own === undefined ? above : [...above, { prefix: relativeDir === '' ? 0 : relativeDir.length + 1, rules: own }];
      this.chains.set(relativeDir, chain);
    }
    return chain;
  }

  /**
   * Whether `relative` (a '/'-separated path below the root) is ignored by the rules of its own
   * directories, assuming none of its parent directories is ignored. `parent`: its directory, when the
   * caller knows it.
   */
  ignoresEntry(relative: string, isDirectory: boolean, parent = parentOf(relative)): boolean {
    const chain = this.chain(parent);
    for (let i = chain.length - 1; i >= 0; i--) {
      const result = chain[i].rules.test(relative.slice(chain[i].prefix) + (isDirectory ? '/' : ''));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }

  /** Whether a file (or a directory) is ignored, its parent directories included. */
  ignoresFile(relative: string, isDirectory = false): boolean {
    const parent = parentOf(relative);
    if (parent !== '' && this.ignoresDirectory(parent)) return true;
    return isDirectory ? this.ignoresDirectory(relative) : this.ignoresEntry(relative, false);
  }

  private ignoresDirectory(relative: string): boolean {
    let ignored = this.ignoredDirs.get(relative);
    if (ignored === undefined) {
      const parent = parentOf(relative);
      ignored = (parent !== '' && this.ignoresDirectory(parent)) || this.ignoresEntry(relative, true);
      this.ignoredDirs.set(relative, ignored);
    }
    return ignored;
  }
}

/** The rules of a .gitignore text, matching names ignoring case or not (`gitignoreIgnoresCase`). */
export function parseGitignore(text: string, ignoreCase: boolean): Ignore {
  return ignore({ allowRelativePaths: true, ignoreCase }).add(text);
}

/** Where ignore files may be read from (ignoreFile.ts), and where a skipped one is reported. */
export interface IgnoreFileScope {
  scope?: ReadScope;
  warn?(message: string): void;
}

/** The text of an ignore file read, or undefined (a skipped one is reported to `options.warn`). */
export function ignoreFileText(read: IgnoreFileRead, options: IgnoreFileScope): string | undefined {
  if (read.kind === 'skipped') options.warn?.(skippedIgnoreNote(read));
  return read.kind === 'text' ? read.text : undefined;
}

/** Parses `<dir>/.gitignore`, or undefined when there is none (or it is skipped: see ignoreFile.ts). */
export function loadGitignore(dir: string, ignoreCase: boolean, options: IgnoreFileScope = {}): Ignore | undefined {
  const text = ignoreFileText(readIgnoreFileSync(dir, options.scope), options);
  return text === undefined ? undefined : parseGitignore(text, ignoreCase);
}

/**
 * The `.gitignore` texts of root-relative directories, read without holding the caller's thread (the
 * extension host), OPENS_AT_ONCE at a time: for `GitignoreRules`' `read`, so its tests never touch the disk.
 */
export async function loadGitignoreTexts(root: string, dirs: Iterable<string>, options: IgnoreFileScope = {}): Promise<Map<string, string>> {
  const list = [...dirs];
  const texts = await mapAtMost(list, OPENS_AT_ONCE, async (dir) => ignoreFileText(await readIgnoreFile(nodePath.join(root, dir), options.scope), options));
  return new Map(list.flatMap((dir, i) => (texts[i] === undefined ? [] : [[dir, texts[i]!] as [string, string]])));
}
