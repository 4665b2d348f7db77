/** The candidate files of a search once the guard said yes: listed (or streamed) by the file source, filtered by include / exclude, in stable order. */
import { keepNewest } from '../api/kept';
import { CancelledError } from '../api/errors';
import { addSkips, emptySkips, type Candidate, type SkipCounts } from '../api/types';
import { compileGlob } from '../globset/globs';
import type { Access } from '../guard/guard';
import { checkSearchGlob } from '../guard/globInput';
import type { SearchBase } from '../guard/roots';
import type { UntitledDocument } from '../guard/untitled';
import { ArrivingCandidates } from '../source/arriving';
import { TimeSlices } from '../source/timeSlices';
import {
  CandidateFilterPass,
  filterCandidates,
  filterStream,
  includeToGlob,
  type CandidateFilter,
  type FileContent,
  type FileQuery,
  type PrunedEntry,
} from '../source/fileSource';
import type { Cancellation, Corpus, Settings } from './environment';
import { untilDeadline } from './stop';

/** What listing the candidates takes: the settings, the file source, the cancellation. */
export type ListingRoles = Settings & Cancellation & Pick<Corpus, 'source'>;

/** Checked before anything is listed or read: an include cannot climb out of the base ('../x', '/etc/*'). */
function checkFilterGlobs(filter: { include?: string; exclude?: string }): void {
  if (filter.include !== undefined) checkSearchGlob(filter.include, 'include');
  if (filter.exclude !== undefined) checkSearchGlob(filter.exclude, 'exclude');
}

/** What a search asks of its listing besides the bases. */
type CandidateQuery = { include?: string; exclude?: string; includeIgnored: boolean; granted?: readonly string[]; deadline?: { at: number; expired: boolean } };

/**
 * The candidate files of a search, in stable order: streamed from the source when it can (the CLI's
 * walker: searching starts while the walk goes on), else listed, filtered and sorted first (once per
 * filter for a listing the source holds: VS Code's resident listings, the CLI's replayed one).
 */
export async function openCandidates(bases: SearchBase[], filter: CandidateQuery, env: ListingRoles, skipped: SkipCounts): Promise<Iterable<Candidate>>;
/** The same, for a caller that takes candidates as they arrive (a grep's scan): a source that lists in parts hands each over as it comes. */
export async function openCandidates(
  bases: SearchBase[],
  filter: CandidateQuery,
  env: ListingRoles,
  skipped: SkipCounts,
  arriving: true,
): Promise<Iterable<Candidate> | ArrivingCandidates>;
export async function openCandidates(
  bases: SearchBase[],
  filter: CandidateQuery,
  env: ListingRoles,
  skipped: SkipCounts,
  arriving = false,
): Promise<Iterable<Candidate> | ArrivingCandidates> {
  checkFilterGlobs(filter);
  const pruned: PrunedEntry[] = [];
  const query = {
    bases,
    include: includeToGlob(filter.include),
    includeIgnored: filter.includeIgnored,
    respectGitignore: env.config.respectGitignore && !filter.includeIgnored,
    granted: filter.granted,
    allowed: env.config.allowedPaths,
    warn: env.warn,
  };
  const candidateFilter = {
    include: filter.include,
    exclude: filter.exclude,
    denied: env.config.deniedPaths,
    allowed: env.config.allowedPaths,
    pruned,
    deadline: filter.deadline,
  };
  if (env.source.stream && !env.source.holds?.(query, env.config.deniedPaths))
    return filterStream(bases, env.source.stream(query, env.config.deniedPaths, pruned, env.isCancelled), candidateFilter, skipped);
  if (arriving && env.source.listInOrder && !env.source.holds?.(query, env.config.deniedPaths))
    return filterArriving(
      bases,
      env.source.listInOrder.bind(env.source),
      { query, denied: env.config.deniedPaths, pruned, isCancelled: env.isCancelled },
      candidateFilter,
      skipped,
    );
  const perBase = await untilDeadline(env.source.list(query, env.config.deniedPaths, pruned, env.isCancelled), filter.deadline);
  if (env.isCancelled()) throw new CancelledError();
  if (!perBase) {
    filter.deadline!.expired = true;
    return [];
  }
  return filterOnce(bases, perBase, candidateFilter, skipped);
}

/**
 * The filter over a source's runs of files as they arrive (already in the final order): the candidates
 * grow while the source lists, and the pass finishes (pruned entries are counted) once all are in. A
 * run (tens of thousands of files at 500,000) is filtered a time slice at a time, each slice's files
 * handed over as it ends, so the thread is never held for the whole run. A listing that fails ends the
 * candidates there with its error, which the search that takes them throws (it never answers with fewer
 * files as if they were all).
 */
function filterArriving(
  bases: SearchBase[],
  listInOrder: NonNullable<ListingRoles['source']['listInOrder']>,
  listing: { query: FileQuery; denied: readonly string[]; pruned: PrunedEntry[]; isCancelled: () => boolean },
  filter: CandidateFilter,
  skipped: SkipCounts,
): ArrivingCandidates {
  const pass = new CandidateFilterPass(bases, filter, skipped);
  const arriving = new ArrivingCandidates();
  const { query, denied, pruned, isCancelled } = listing;
  const slices = new TimeSlices();
  // The runs are filtered one after the other, in the order they came.
  let filtered = Promise.resolve();
  const filterRun = async (base: number, files: readonly Candidate[]): Promise<void> => {
    let kept: Candidate[] = [];
    for (const candidate of files) {
      if (pass.accept(base, candidate)) kept.push(candidate);
      if (slices.due()) {
        arriving.add(kept);
        kept = [];
        await slices.pause();
      }
    }
    arriving.add(kept);
  };
  listInOrder(query, denied, pruned, isCancelled, (base, files) => void (filtered = filtered.then(() => filterRun(base, files))))
    .then(
      (complete) =>
        filtered.then(() => {
          if (complete) pass.finish();
          arriving.end();
        }),
      (error: unknown) => filtered.then(() => arriving.end(error)),
    )
    // A run whose filtering failed ends the candidates with that error too.
    .catch((error: unknown) => arriving.end(error));
  return arriving;
}

/** What a filter kept of a source's lists, and what it counted in `skipped`. */
interface FilteredLists {
  perBase: readonly Candidate[][];
  candidates: Candidate[];
  skipped: SkipCounts;
}

/** Filters remembered per list (a few include / exclude at a time, and the checks of an empty answer). */
const FILTERS_KEPT = 16;
const filteredLists = new WeakMap<Candidate[], Map<string, FilteredLists>>();

/**
 * filterCandidates, remembered: a source that hands back the very same lists for an unchanged listing
 * (VS Code's resident listings, a replayed recorded listing) has them filtered and sorted once per
 * filter, not on every call. The lists are never changed once listed; what the pruned entries add to
 * `skipped` comes with them.
 */
async function filterOnce(bases: SearchBase[], perBase: Candidate[][], filter: CandidateFilter, skipped: SkipCounts): Promise<Iterable<Candidate>> {
  const first = perBase[0];
  if (!first || perBase.length !== bases.length) return filterCandidates(bases, perBase, filter, skipped);
  const key = JSON.stringify([bases, filter.include, filter.exclude, filter.denied, filter.allowed ?? []]);
  let memo = filteredLists.get(first);
  const found = memo?.get(key);
  if (found && found.perBase.every((list, i) => list === perBase[i])) {
    addSkips(skipped, found.skipped);
    return found.candidates;
  }
  const counted = emptySkips();
  const candidates = await filterCandidates(bases, perBase, filter, counted);
  addSkips(skipped, counted);
  // A filter stopped by the time limit kept only part: not remembered.
  if (!filter.deadline?.expired) {
    if (!memo) filteredLists.set(first, (memo = new Map()));
    keepNewest(memo, key, { perBase: perBase.slice(), candidates, skipped: counted }, FILTERS_KEPT);
  }
  return candidates;
}

/**
 * The one candidate of a search of an untitled editor: the document, named by its URI and matched by
 * its name against include and exclude (as a file base's own name is); none when they leave it out.
 */
function untitledCandidates(document: UntitledDocument, filter: { include?: string; exclude?: string }): Candidate[] {
  checkFilterGlobs(filter);
  const included = filter.include === undefined || compileGlob(filter.include, 'include')(document.name);
  const excluded = filter.exclude !== undefined && compileGlob(filter.exclude, 'exclude')(document.name);
  return included && !excluded ? [{ path: document.uri, relative: document.name }] : [];
}

/** What one search reads, once the guard said yes. */
export interface SearchTarget {
  /** The answer's base_path: the bases, or the untitled editor's URI. */
  basePaths: string[];
  /** Where symlinks may lead (`Access.granted`); none for an untitled editor. */
  granted: string[];
  /** In order: listed, or arriving while the source lists (the first search of a large folder). */
  candidates: Iterable<Candidate> | ArrivingCandidates;
  /** The content searched instead of reading a candidate's path from disk, if any (contentOverride; the untitled editor's text). */
  contentOf(path: string): FileContent | undefined;
  /** Whether contentOf may give any candidate's content: without, every candidate is read from disk (or settled by the index). */
  overridden: boolean;
}

/**
 * The content searched instead of a listed file on disk, if any: an open editor's unsaved text
 * (`Corpus.overrides`), else the source's reader of a file on a virtual file system.
 */
export function contentOverride(env: Pick<Corpus, 'overrides' | 'source'>, path: string): FileContent | undefined {
  return env.overrides?.get(path) ?? env.source.reader?.(path);
}

/**
 * The candidates include_ignored adds (RunOptions.onlyIgnored): those of `listed` (listed with ignored
 * files) that the same search without include_ignored does not list. The listing without them is taken
 * as a search takes it (replayed where the source keeps it); what it skips is not counted again.
 */
async function ignoredOnly(
  access: Extract<Access, { kind: 'files' }>,
  filter: { include?: string; exclude?: string; deadline?: { at: number; expired: boolean } },
  listed: Iterable<Candidate>,
  env: ListingRoles,
): Promise<Iterable<Candidate>> {
  const without = await openCandidates(access.bases, { ...filter, includeIgnored: false, granted: access.granted }, env, emptySkips());
  // Both lists remembered as they were (filterOnce): the files between them are too.
  const remembered = Array.isArray(listed) && Array.isArray(without) ? ignoredOnlyLists.get(listed) : undefined;
  if (remembered?.without === without) return remembered.added;
  const searched = new Set<string>();
  for (const candidate of without) searched.add(candidate.path);
  const added: Candidate[] = [];
  for (const candidate of listed) if (!searched.has(candidate.path)) added.push(candidate);
  if (Array.isArray(listed) && Array.isArray(without) && !filter.deadline?.expired) ignoredOnlyLists.set(listed, { without, added });
  return added;
}

/** What include_ignored adds, per remembered list with ignored files, with the list without them it was taken against. */
const ignoredOnlyLists = new WeakMap<Candidate[], { without: Candidate[]; added: Candidate[] }>();

/** The files below the granted bases, or the one untitled editor `path` named, searched from its text. */
export async function searchTarget(
  access: Access,
  filter: { include?: string; exclude?: string; includeIgnored: boolean; onlyIgnored?: boolean; deadline?: { at: number; expired: boolean } },
  env: ListingRoles & Pick<Corpus, 'overrides'>,
  skipped: SkipCounts,
): Promise<SearchTarget> {
  if (access.kind === 'untitled') {
    const { document } = access;
    const candidates = untitledCandidates(document, filter);
    const texts = new Map(candidates.map((candidate) => [candidate.path, document.text()]));
    return { basePaths: [document.uri], granted: [], candidates, contentOf: (path) => texts.get(path), overridden: true };
  }
  const onlyIgnored = filter.onlyIgnored === true && filter.includeIgnored;
  const granted = { ...filter, granted: access.granted };
  const candidates = onlyIgnored
    ? await ignoredOnly(access, filter, await openCandidates(access.bases, granted, env, skipped), env)
    : await openCandidates(access.bases, granted, env, skipped, true);
  // No open editor's text and no reader: every candidate is read from disk (asked per candidate: 100,000 times on a large tree).
  const overridden = (env.overrides?.size ?? 0) > 0 || env.source.reader !== undefined;
  return {
    basePaths: access.bases.map((base) => base.base),
    granted: access.granted,
    candidates,
    contentOf: overridden ? (path) => contentOverride(env, path) : () => undefined,
    overridden,
  };
}
