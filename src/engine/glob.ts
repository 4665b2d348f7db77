/** The glob tool's engine: validated input → files below the base whose relative path matches. */
import * as nodePath from 'path';
import { filterCandidates } from './fileSource';
import { comparePaths, splitAbsoluteGlob } from './globs';
import { CancelledError, resolveGrantedBases, type SearchEnvironment } from './grep';
import { Minimatch } from 'minimatch';
import { GLOB_SCHEMA, InputError, validate } from './schema';
import { emptySkips, type Candidate, type GlobInput, type SkipCounts } from './types';

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
}

function compileRelativeMatcher(pattern: string, mode: 'glob' | 'regex'): (relative: string) => boolean {
  if (mode === 'regex') {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, 'u');
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

export async function runGlob(rawInput: unknown, env: SearchEnvironment): Promise<GlobReport> {
  const started = Date.now();
  const input = validate<GlobInput>('glob', GLOB_SCHEMA, rawInput);
  const mode = input.mode ?? 'glob';
  let pattern = input.pattern;
  let path = input.path;
  if (mode === 'glob' && nodePath.isAbsolute(pattern)) {
    const split = splitAbsoluteGlob(pattern);
    if (path !== undefined && nodePath.resolve(path) !== split.base) {
      throw new InputError(`Give either an absolute glob or "path", not both: pattern ${JSON.stringify(pattern)} already names the base ${split.base}.`);
    }
    path = split.base;
    pattern = split.rest;
  }
  const matches = compileRelativeMatcher(pattern, mode);
  const offset = input.offset ?? 0;
  // glob lists paths, which are small: its default and cap are 1000 whatever grep's cap is.
  const limit = Math.min(input.max_results ?? 1000, Math.max(env.config.maxResultsCap, 1000));
  const skipped = emptySkips();
  const bases = await resolveGrantedBases(path, env);

  const list = async (sourceGlob: string, test: (relative: string) => boolean, skipped: SkipCounts): Promise<Candidate[]> => {
    const perBase = await env.source.list({ bases, include: sourceGlob, includeIgnored: input.include_ignored === true }, env.config.deniedPaths, skipped, env.isCancelled);
    if (env.isCancelled()) throw new CancelledError();
    const depth = input.max_depth ?? 0;
    // Match first, so only files the pattern would have listed count as denied.
    const matching = perBase.map((files) => files.filter((c) => test(c.relative) && (depth === 0 || c.relative.split('/').length <= depth)));
    return filterCandidates(bases, matching, { denied: env.config.deniedPaths }, skipped);
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
  return {
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
  };
}
