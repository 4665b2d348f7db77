/**
 * The sink of a grep (ripgrep's `Sink`): takes each file's outcome in report order and keeps what the
 * report needs: the page (offset / max_results over lines, counts or files), the totals past the page,
 * skip counts, the matching files for a cut page's note, and the first files over the size limit.
 */
import type { GrepInput, LineResult, OutputMode, SkipCounts } from '../api/types';
import type { FileOutcome } from '../pool/pool';
import type { FileMatches } from '../searcher/searcher';

export type GrepFileEntry = { file: string; matches: LineResult[] } | { file: string; count: number } | string;

/** A matching file, its number of matching lines, and its first one (without context). */
export interface MatchedFile {
  file: string;
  count: number;
  first?: { line: number; text: string };
}

/** What one of a search's fallbacks (SearchSpec.fallbacks) found in the files without a match: lines, files, the first line in report order. */
export interface FallbackFound {
  lines: number;
  files: number;
  first?: { file: string; line: number; text: string };
}

/** Matching files kept for a cut page's note, and large files kept for their check: enough, and bounded. */
const MAX_MATCHED_FILES = 10_000;
const MAX_LARGE_FILES = 20;

export class GrepCollector {
  readonly files: GrepFileEntry[] = [];
  /** content: reported lines; count: sum of counts; files_with_matches: matching files. */
  totalResults = 0;
  totalMatches = 0;
  filesSearched = 0;
  filesMatched = 0;
  /** Every matching file with its count, in report order (at most MAX_MATCHED_FILES). */
  readonly matched: MatchedFile[] = [];
  /** The first files skipped as over grepTools.maxFileSize (at most MAX_LARGE_FILES). */
  readonly largeFiles: string[] = [];
  /** Files whose lines were given their definitions (searcher/outline.ts): parsed for this search or known, and the time taken. */
  readonly outlined = { parsed: 0, cached: 0, ms: 0 };
  /**
   * Every matching file in report order, unbounded, when the page is ordered after the search
   * (run/pageOrder.ts), with its outcome: its count, its lines, whether a matching line looks like a
   * declaration (what the order learns of it is kept beside it: grep.ts).
   */
  all?: Array<{ file: string; outcome: FileMatches }>;
  /** What the search's fallbacks found, in their order, when it has any (grep.ts). */
  fallbacks?: FallbackFound[];

  constructor(
    private readonly mode: OutputMode,
    private readonly offset: number,
    private readonly limit: number,
    readonly skipped: SkipCounts,
    /** Called with each entry as it joins the page (the Command Palette shows results as they come). */
    private readonly onFile?: (entry: GrepFileEntry) => void,
  ) {}

  /** How many more reported lines the page can take (0: only the next files' counts matter). */
  get pageRoom(): number {
    return Math.max(0, this.offset + this.limit - this.totalResults);
  }

  add(file: string, outcome: FileOutcome): void {
    if (typeof outcome === 'string') {
      this.skipped[outcome]++;
      if (outcome === 'too_large' && this.largeFiles.length < MAX_LARGE_FILES) this.largeFiles.push(file);
      return;
    }
    this.filesSearched++;
    if (outcome === 0) return;
    if (outcome.fallbacks) this.addFallbacks(file, outcome.fallbacks);
    if (outcome.count === 0) return;
    this.filesMatched++;
    if (this.matched.length < MAX_MATCHED_FILES) this.matched.push({ file, count: outcome.count, first: firstLine(outcome) });
    this.all?.push({ file, outcome });
    this.totalMatches += outcome.count;
    if (this.mode === 'content') {
      const from = Math.max(0, this.offset - this.totalResults);
      const to = Math.min(outcome.count, this.offset + this.limit - this.totalResults);
      // Copies: the page's lines get their definitions (grep.ts), and an outcome may be remembered for a later search.
      if (from < to) this.page({ file, matches: outcome.lines.slice(from, to).map((line) => ({ ...line })) });
      this.totalResults += outcome.count;
    } else {
      if (this.totalResults >= this.offset && this.totalResults < this.offset + this.limit)
        this.page(this.mode === 'count' ? { file, count: outcome.count } : file);
      this.totalResults++;
    }
  }

  private addFallbacks(file: string, found: NonNullable<FileMatches['fallbacks']>): void {
    found.forEach((hit, i) => {
      const total = this.fallbacks?.[i];
      if (!hit || !total) return;
      total.lines += hit.count;
      total.files++;
      if (!total.first && hit.first) total.first = { file, line: hit.first.line, text: hit.first.text };
    });
  }

  /** A file searched that holds no match: what `add(file, 0)` does, without the file. */
  addEmpty(files = 1): void {
    this.filesSearched += files;
  }

  /** Results on the page: lines in mode content, else entries. */
  get returnedResults(): number {
    return this.mode === 'content' ? this.files.reduce((n, f) => n + (f as { matches: LineResult[] }).matches.length, 0) : this.files.length;
  }

  private page(entry: GrepFileEntry): void {
    this.files.push(entry);
    this.onFile?.(entry);
  }
}

/** A file's first reported line without its context, from its lines or, when they were not collected, from `first`. */
function firstLine(outcome: { lines: LineResult[]; first?: LineResult }): { line: number; text: string } | undefined {
  const first = outcome.lines[0] ?? outcome.first;
  return first && { line: first.line, text: first.text };
}

/** The page size of a grep: max_results, or the setting's default, never above the cap. */
export function resultLimit(input: Pick<GrepInput, 'max_results'>, config: { maxResults: number; maxResultsCap: number }): number {
  return Math.min(input.max_results ?? config.maxResults, config.maxResultsCap);
}
