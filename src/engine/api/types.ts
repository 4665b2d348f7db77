/** Inputs and results shared by the engine, the printers and the VS Code layer. */

export type OutputMode = 'content' | 'files_with_matches' | 'count';

export interface GrepInput {
  pattern: string;
  path?: string;
  include?: string;
  exclude?: string;
  output_mode?: OutputMode;
  case_insensitive?: boolean;
  fixed_strings?: boolean;
  word?: boolean;
  multiline?: boolean;
  invert_match?: boolean;
  context_lines?: number;
  before_lines?: number;
  after_lines?: number;
  max_results?: number;
  max_matches_per_file?: number;
  offset?: number;
  include_ignored?: boolean;
}

export interface GlobInput {
  pattern: string;
  path?: string;
  mode?: 'glob' | 'regex';
  max_depth?: number;
  max_results?: number;
  offset?: number;
  sort?: 'path' | 'mtime';
  include_ignored?: boolean;
}

/** One reported line (a match, or with invert_match a non-matching line). */
export interface LineResult {
  line: number;
  text: string;
  before?: string[];
  after?: string[];
  /** The definitions enclosing the line, outermost first, joined by " > " (searcher/outline.ts). */
  in?: string;
  /** The line defines a name the pattern matches (a declaration's name node holds the match). */
  defines?: boolean;
}

export interface SkipCounts {
  binary: number;
  too_large: number;
  denied: number;
  unreadable: number;
  outside_workspace: number;
}

export function emptySkips(): SkipCounts {
  return { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 };
}

/** Adds the counts of `counted` to `skipped`. */
export function addSkips(skipped: SkipCounts, counted: SkipCounts): void {
  for (const reason of Object.keys(skipped) as Array<keyof SkipCounts>) skipped[reason] += counted[reason];
}

/** What a directory entry is, as a listing says it (a link is a link, not what it leads to). */
export type EntryKind = 'file' | 'directory' | 'link' | 'other';

/** The kind of a listed entry: a Node Dirent, or any entry that says what it is. */
export function entryKind(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  return entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
}

/** A file to search or list: its absolute path and its path relative to the search base. */
export interface Candidate {
  path: string;
  relative: string;
}
