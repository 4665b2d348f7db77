/** The grep tool's engine: validated input → files from a source → searcher → one report in stable order. */
import { promises as fs } from 'fs';
import * as nodePath from 'path';
import type { EngineConfig } from './config';
import { filterCandidates, includeToGlob, type FileSource } from './fileSource';
import { deniedDirectoryGlobs, deniedRule } from './globs';
import { compileMatcher } from './matcher';
import type { ReadOutcome } from './reader';
import { isInside, resolveBases, type SearchBase, type WorkspaceFolder } from './roots';
import { GREP_SCHEMA, InputError, validate } from './schema';
import { decodeText, searchText, type FileMatches } from './searcher';
import { emptySkips, type Candidate, type GrepInput, type LineResult, type OutputMode, type SkipCounts } from './types';

export class CancelledError extends Error {
  constructor() {
    super('The search was cancelled.');
    this.name = 'CancelledError';
  }
}

export interface SearchEnvironment {
  folders: readonly WorkspaceFolder[];
  source: FileSource;
  config: EngineConfig;
  readFile(path: string, maxSize: number): Promise<ReadOutcome>;
  /** A path outside every workspace folder may be searched (the person confirmed it). */
  allowOutside: boolean;
  isCancelled(): boolean;
}

export type GrepFileEntry =
  | { file: string; matches: LineResult[] }
  | { file: string; count: number }
  | string;

export interface GrepReport {
  pattern: string;
  basePaths: string[];
  outputMode: OutputMode;
  files: GrepFileEntry[];
  /** content: reported lines; count: sum of counts; files_with_matches: matching files. */
  totalResults: number;
  returnedResults: number;
  totalMatches: number;
  filesSearched: number;
  filesMatched: number;
  candidates: number;
  offset: number;
  nextOffset?: number;
  skipped: SkipCounts;
  timedOut: boolean;
  elapsedMs: number;
  include?: string;
}

/** The denied-path rule that a base (a file, or a directory a rule hides) matches; '' (the root itself) never does. */
function deniedBaseRule(absolute: string, root: string, rules: readonly string[]): string | undefined {
  const relative = nodePath.relative(root, absolute).split(nodePath.sep).join('/');
  if (relative === '') return undefined;
  return rules.find((rule) => deniedRule(relative, [rule]) !== undefined || deniedDirectoryGlobs([rule]).some((dir) => deniedRule(relative, [dir])));
}

/**
 * Resolves `path` to bases, refusing outside paths unless allowed (also when a symlink leads outside),
 * denied paths, and a path that does not exist.
 */
export async function resolveGrantedBases(path: string | undefined, env: SearchEnvironment): Promise<SearchBase[]> {
  const bases = await resolveBases(path, env.folders, async (p) => (await env.source.kind(p)) !== undefined);
  const outside = (resolved: string) =>
    new InputError(
      `Path ${JSON.stringify(path)} resolves to ${resolved}, which is outside every workspace folder (${env.folders.map((f) => f.path).join(', ') || 'none open'}). Search inside the workspace, or ask the user to open that folder.`,
    );
  const denied = (rule: string) =>
    new InputError(
      `Path ${JSON.stringify(path)}: permission denied by policy (it matches the denied path rule ${JSON.stringify(rule)}). Secrets, keys and .git are never searched or listed; search another path.`,
    );
  for (const base of bases) {
    if (base.folderIndex === -1 && !env.allowOutside) throw outside(base.base);
    // An outside base is checked as an absolute path, so '/home/me/.ssh' is denied too.
    const fileSystemRoot = (p: string) => nodePath.parse(p).root;
    const rule = deniedBaseRule(base.base, base.folderIndex === -1 ? fileSystemRoot(base.base) : base.root, env.config.deniedPaths);
    if (rule !== undefined) throw denied(rule);
    if ((await env.source.kind(base.base)) === undefined) {
      if (path === undefined || path === '' || path === '.') {
        throw new InputError(`Workspace folder not found: ${base.base} does not exist. Open an existing folder, or pass an absolute "path".`);
      }
      throw new InputError(`Path not found: ${JSON.stringify(path)} (resolved to ${base.base}). Check the path, or omit "path" to search the whole workspace.`);
    }
    // `..` was resolved above; a symlink on the way may still lead elsewhere: judge the real path.
    const real = await fs.realpath(base.base).catch(() => base.base);
    let realRoot = fileSystemRoot(real);
    if (base.folderIndex !== -1) {
      const folderRoot = await fs.realpath(base.root).catch(() => base.root);
      if (isInside(real, folderRoot)) realRoot = folderRoot;
      else if (!env.allowOutside) throw outside(real);
    }
    const realRule = deniedBaseRule(real, realRoot, env.config.deniedPaths);
    if (realRule !== undefined) throw denied(realRule);
  }
  return bases;
}

export function resultLimit(requested: number | undefined, config: EngineConfig): number {
  return Math.min(requested ?? config.maxResults, config.maxResultsCap);
}

/** Lists the candidate files of a search, in stable order. */
export async function listCandidates(
  bases: SearchBase[],
  filter: { include?: string; exclude?: string; includeIgnored: boolean },
  env: SearchEnvironment,
  skipped: SkipCounts,
): Promise<Candidate[]> {
  const perBase = await env.source.list(
    { bases, include: includeToGlob(filter.include), includeIgnored: filter.includeIgnored },
    env.config.deniedPaths,
    skipped,
    env.isCancelled,
  );
  if (env.isCancelled()) throw new CancelledError();
  return filterCandidates(bases, perBase, { include: filter.include, exclude: filter.exclude, denied: env.config.deniedPaths }, skipped);
}

/** How many files are read and searched at once. */
const READ_AHEAD = 16;

export async function runGrep(rawInput: unknown, env: SearchEnvironment): Promise<GrepReport> {
  const started = Date.now();
  const input = validate<GrepInput>('grep', GREP_SCHEMA, rawInput);
  const matcher = compileMatcher(input.pattern, input);
  const mode: OutputMode = input.output_mode ?? 'content';
  const offset = input.offset ?? 0;
  const limit = resultLimit(input.max_results, env.config);
  const deadline = started + env.config.timeoutSeconds * 1000;
  const skipped = emptySkips();

  const bases = await resolveGrantedBases(input.path, env);
  const candidates = await listCandidates(
    bases,
    { include: input.include, exclude: input.exclude, includeIgnored: input.include_ignored === true },
    env,
    skipped,
  );

  const before = input.before_lines ?? input.context_lines ?? 0;
  const after = input.after_lines ?? input.context_lines ?? 0;
  const maxPerFile = input.max_matches_per_file ?? Number.MAX_SAFE_INTEGER;
  const searchOne = async (candidate: Candidate, collect: boolean): Promise<FileMatches | keyof SkipCounts> => {
    const read = await env.readFile(candidate.path, env.config.maxFileSize);
    if (read.kind !== 'bytes') return read.kind;
    const text = decodeText(read.bytes);
    if (text === undefined) return 'binary';
    return searchText(text, matcher, {
      invert: input.invert_match === true,
      before,
      after,
      // files_with_matches needs one hit per file; the others need exact counts.
      maxPerFile: mode === 'files_with_matches' ? 1 : maxPerFile,
      maxLineLength: env.config.maxLineLength,
      collect: collect && mode === 'content',
    });
  };

  const files: GrepFileEntry[] = [];
  let totalResults = 0;
  let totalMatches = 0;
  let filesSearched = 0;
  let filesMatched = 0;
  let timedOut = false;
  const pending: Array<Promise<FileMatches | keyof SkipCounts> | undefined> = [];
  let launched = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (env.isCancelled()) throw new CancelledError();
    if (Date.now() > deadline) {
      timedOut = true;
      break;
    }
    const pageFull = totalResults >= offset + limit;
    while (launched < candidates.length && launched < i + READ_AHEAD) {
      pending[launched] = searchOne(candidates[launched], !pageFull);
      launched++;
    }
    const outcome = await pending[i]!;
    pending[i] = undefined;
    if (typeof outcome === 'string') {
      skipped[outcome]++;
      continue;
    }
    filesSearched++;
    if (outcome.count === 0) continue;
    filesMatched++;
    totalMatches += outcome.count;
    const file = candidates[i].path;
    if (mode === 'content') {
      const from = Math.max(0, offset - totalResults);
      const to = Math.min(outcome.count, offset + limit - totalResults);
      if (from < to) files.push({ file, matches: outcome.lines.slice(from, to) });
      totalResults += outcome.count;
    } else {
      if (totalResults >= offset && totalResults < offset + limit) {
        files.push(mode === 'count' ? { file, count: outcome.count } : file);
      }
      totalResults++;
    }
  }
  await Promise.allSettled(pending.filter((p) => p !== undefined));

  const returnedResults = mode === 'content' ? files.reduce((n, f) => n + (f as { matches: LineResult[] }).matches.length, 0) : files.length;
  const end = offset + returnedResults;
  return {
    pattern: input.pattern,
    basePaths: bases.map((b) => b.base),
    outputMode: mode,
    files,
    totalResults,
    returnedResults,
    totalMatches,
    filesSearched,
    filesMatched,
    candidates: candidates.length,
    offset,
    nextOffset: end < totalResults ? end : undefined,
    skipped,
    timedOut,
    elapsedMs: Date.now() - started,
    include: input.include,
  };
}
