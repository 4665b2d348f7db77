/** The glob tool's engine: validated input → files below the base whose relative path matches. */
import { diagnoseGlob, type GlobDiagnostics } from './diagnostics';
import { filterCandidates, globMayMatchBelow, type PrunedEntry } from './fileSource';
import { comparePaths } from './globs';
import { checkSearchGlob, globRequest } from './guard';
import { authorizeSearch, CancelledError, unlessCancelled, type SearchEnvironment } from './grep';
import { Minimatch } from 'minimatch';
import { GLOB_SCHEMA, InputError, validate } from './schema';
import { emptySkips, type Candidate, type GlobInput, type SkipCounts } from './types';
import type { UntitledDocument } from './untitled';

export interface GlobReport {
  pattern: string;
  mode: 'glob' | 'regex';
  basePaths: string[];
  files: string[];
  total: number;
  offset: number;
  nextOffset?: number;
  skipped: SkipCounts;
  elapsedMs: number;
  /** With zero results for a pattern without '/': how many files '**\/pattern' would find. */
  deeperMatches?: number;
  /** The validated input, for notes that give the exact call to make next. */
  input?: GlobInput;
  /** With zero results: what a changed search would find (diagnostics.ts). */
  diagnostics?: GlobDiagnostics;
}

/** glob was given an untitled editor as its base: what it is, and the grep call that searches it. */
export function untitledGlobMessage(path: string, document: UntitledDocument): string {
  const call = JSON.stringify({ pattern: '<text to find>', path: document.uri });
  return (
    `glob lists files on disk, and ${JSON.stringify(path)} is an untitled (unsaved) editor, ${document.uri}, with no file on disk. ` +
    `To search its text, call grep with this path: ${call}. To list files, give glob a directory as "path".`
  );
}

function compileRelativeMatcher(pattern: string, mode: 'glob' | 'regex'): (relative: string) => boolean {
  if (mode === 'regex') {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, 'u');
      // V8 compiles on first use and may fail then ("Regular expression too large"): use it here once.
      regex.test('');
    } catch (error) {
      throw new InputError(
        `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Hint: in mode "regex" the pattern is a JavaScript regex tested against the base-relative path, e.g. "\\\\.test\\\\.ts$".`,
      );
    }
    return (relative) => regex.test(relative);
  }
  if (pattern.includes('\\')) throw new InputError(`Invalid glob ${JSON.stringify(pattern)}: use '/' as the path separator, not '\\'.`);
  const glob = new Minimatch(pattern.replace(/^\.\//, ''), { dot: true, nocomment: true, nonegate: true });
  return (relative) => glob.match(relative);
}

/** Runs one glob; a cancelled one rejects with CancelledError (at once when the environment signals it). */
export function runGlob(rawInput: unknown, env: SearchEnvironment): Promise<GlobReport> {
  return unlessCancelled(listGlob(rawInput, env), env);
}

async function listGlob(rawInput: unknown, env: SearchEnvironment): Promise<GlobReport> {
  const started = Date.now();
  const input = validate<GlobInput>('glob', GLOB_SCHEMA, rawInput);
  const mode = input.mode ?? 'glob';
  // An absolute glob names its base, which the guard judges like "path"; the rest cannot climb out ('..').
  const { pattern, path } = globRequest(input.pattern, input.path, mode);
  if (mode === 'glob') checkSearchGlob(pattern, 'glob');
  const matches = compileRelativeMatcher(pattern, mode);
  const offset = input.offset ?? 0;
  // glob lists paths, which are small: its default and cap are 1000 whatever grep's cap is.
  const limit = Math.min(input.max_results ?? 1000, Math.max(env.config.maxResultsCap, 1000));
  const skipped = emptySkips();
  const access = await authorizeSearch(path, env);
  if (access.kind === 'untitled') throw new InputError(untitledGlobMessage(path ?? access.document.uri, access.document));
  const { bases, granted } = access;

  const list = async (sourceGlob: string, test: (relative: string) => boolean, skipped: SkipCounts): Promise<Candidate[]> => {
    const pruned: PrunedEntry[] = [];
    const perBase = await env.source.list({ bases, include: sourceGlob, includeIgnored: input.include_ignored === true, respectGitignore: env.config.respectGitignore && input.include_ignored !== true, granted }, env.config.deniedPaths, pruned, env.isCancelled);
    if (env.isCancelled()) throw new CancelledError();
    const depth = input.max_depth ?? 0;
    const withinDepth = (relative: string, directory: boolean) => depth === 0 || relative.split('/').length + (directory ? 1 : 0) <= depth;
    // Match first, so only files the pattern would have listed count as denied.
    const matching = perBase.map((files) => files.filter((c) => test(c.relative) && withinDepth(c.relative, false)));
    // A pruned entry counts when the pattern could have listed it, or files inside it (a regex: any).
    const below = mode === 'glob' ? globMayMatchBelow(sourceGlob, false) : () => true;
    const selects = (relative: string, directory: boolean) => withinDepth(relative, directory) && (directory ? below(relative) : test(relative));
    return filterCandidates(bases, matching, { denied: env.config.deniedPaths, allowed: env.config.allowedPaths, pruned, selects }, skipped);
  };
  const found = await list(mode === 'glob' ? pattern : '**', matches, skipped);
  let ordered = found.map((c) => c.path);
  if (input.sort === 'mtime') {
    const times = new Map<string, number>();
    await Promise.all(found.map(async (c) => times.set(c.path, await env.source.mtime(c.path))));
    ordered = [...found]
      .sort((a, b) => (times.get(b.path)! - times.get(a.path)!) || comparePaths(a.relative, b.relative))
      .map((c) => c.path);
  }

  let deeperMatches: number | undefined;
  if (found.length === 0 && mode === 'glob' && !pattern.includes('/')) {
    const deeper = `**/${pattern}`;
    // Its own skip counts: the files it passes over were already counted by the search above.
    deeperMatches = (await list(deeper, compileRelativeMatcher(deeper, 'glob'), emptySkips())).length;
  }
  const files = ordered.slice(offset, offset + limit);
  const end = offset + files.length;
  const report: GlobReport = {
    pattern: input.pattern,
    mode,
    basePaths: bases.map((b) => b.base),
    files,
    total: ordered.length,
    offset,
    nextOffset: end < ordered.length ? end : undefined,
    skipped,
    elapsedMs: Date.now() - started,
    deeperMatches,
    input,
  };
  // Zero results explain themselves: the likely fixes, checked by re-running (diagnostics.ts).
  report.diagnostics = await diagnoseGlob(input, report, env, runGlob);
  return report;
}
