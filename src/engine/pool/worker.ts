/**
 * A search worker (worker_threads): reads files, prefilters their bytes and searches them (or searches
 * the content it was sent), tests names against glob's regex, or takes files' stamps, so the extension
 * host's main thread stays free and a runaway regex can be stopped. One message in, one message out per
 * batch.
 */
import { keepNewest } from '../api/kept';
import { parentPort, workerData } from 'worker_threads';
import { runInBackground } from './background';
import { relativeGlobTest } from '../globset/globs';
import { compileMatcher, type Matcher } from '../matcher/matcher';
import { readFileCappedSync, scratchBuffer } from '../searcher/reader';
import type { ReadScope } from '../guard/scope';
import { grammarOf, outlineItem, OUTLINE_MAX_BYTES, sourceOfRead, TOO_LARGE, warmGrammars, type SourceText } from '../searcher/outline';
import { compilePattern, pageOptions, searchWithFallbacks, type CompiledPattern, type SearchOptions } from '../searcher/searcher';
import { listDirectorySync } from '../source/directory';
import { entryKind } from '../api/types';
import { packStamps, stampKey, statStamp } from '../source/fileStamp';
import {
  SPECS_KEPT,
  type BatchRequest,
  type BatchResult,
  type DirectoryItem,
  type FileItem,
  type FileOutcome,
  type JobSpec,
  type ListedDirectory,
  type OutlineItem,
  type OutlineOutcome,
  type OutlineSpec,
  type SearchSpec,
  type WorkerOptions,
} from './pool';

interface PreparedSearch {
  spec: SearchSpec;
  pattern: CompiledPattern;
  /** SearchSpec.fallbacks, compiled. */
  fallbacks: CompiledPattern[];
}

interface PreparedOutline {
  outline: OutlineSpec['outline'];
  matcher: Matcher;
}

type Prepared = PreparedSearch | PreparedOutline | { nameTest: (name: string) => boolean } | { stamps: true } | { directories: true };

/** The specs this worker was sent, by key, oldest first: the pool sends each one once (pool.ts). */
const prepared = new Map<string, Prepared>();

function preparedOf(spec: JobSpec): Prepared {
  if ('stamps' in spec || 'directories' in spec) return spec;
  if ('outline' in spec) return { outline: spec.outline, matcher: compileMatcher(spec.outline.pattern, spec.outline.matcher) };
  if ('nameRegex' in spec) {
    const regex = new RegExp(spec.nameRegex, 'u');
    return { nameTest: (name) => regex.test(name) };
  }
  if ('nameGlob' in spec) return { nameTest: relativeGlobTest(spec.nameGlob) };
  const fallbacks = (spec.fallbacks?.readings ?? []).map((reading) => compilePattern(reading.pattern, reading.matcher));
  return { spec, pattern: compilePattern(spec.pattern, spec.matcher), fallbacks };
}

function prepare(key: string, spec: JobSpec | undefined): Prepared {
  if (spec) keepNewest(prepared, key, preparedOf(spec), SPECS_KEPT);
  const entry = prepared.get(key);
  if (!entry) throw new Error(`A search worker was not sent the search ${key}.`);
  return entry;
}

/** One read buffer for all files (they are at most maxFileSize). */
const lend = scratchBuffer();

/**
 * Searches one file; its lines are tested as declarations (SearchOptions.declarations) only in a language
 * with a grammar. With `fallbacks`, a file without a match is searched for each of the spec's fallbacks.
 */
function searchFile(item: FileItem, job: PreparedSearch, declaring: SearchOptions, options: SearchOptions, fallbacks: boolean): FileOutcome {
  const { spec, pattern } = job;
  if (declaring !== options && grammarOf(typeof item === 'string' ? item : item.path)) options = declaring;
  let content: string | Uint8Array;
  if (typeof item !== 'string') {
    content = item.content;
  } else {
    const read = readFileCappedSync(item, spec.maxFileSize, lend, spec.scope);
    if (read.kind !== 'bytes') return read.kind;
    content = read.bytes;
  }
  const readings = fallbacks && spec.fallbacks ? { readings: job.fallbacks, options: spec.fallbacks.search } : undefined;
  const found = searchWithFallbacks(content, pattern, options, readings);
  // A file without a match (nor a fallback's) answers 0: the cheapest thing to send back.
  return found !== 'binary' && found.count === 0 && !found.fallbacks ? 0 : found;
}

/** A file's text read when first asked for (then kept), as the outline's SourceText; undefined when it cannot be read. */
function onceRead(path: string, maxSize: number, scope: ReadScope | undefined): () => string | typeof TOO_LARGE | undefined {
  let text: string | typeof TOO_LARGE | undefined | null = null;
  return () => {
    if (text === null) text = sourceOfRead(readFileCappedSync(path, maxSize, lend, scope));
    return text;
  };
}

/** The time a batch may spend outlining its files: past it, the rest answer without their definitions. */
const OUTLINE_BATCH_MS = 1000;

/** Gives each file's lines their definitions (searcher/outline.ts), one file after the other. */
async function outlineBatch(items: OutlineItem[], { outline, matcher }: PreparedOutline): Promise<OutlineOutcome[]> {
  const until = Date.now() + OUTLINE_BATCH_MS;
  const outcomes: OutlineOutcome[] = [];
  for (const item of items) {
    // A cut page's order (item.find) waits for its files: bounded by their size and number instead (run/grep.ts).
    if (!item.find && Date.now() > until) {
      outcomes.push(undefined);
      continue;
    }
    // A file on disk is read only when its definitions are not kept for its stamp, or a line's text is
    // needed; one over what is outlined is not read (its definitions are not named: outline.ts).
    const source: SourceText = item.content ?? onceRead(item.path, Math.min(outline.maxFileSize, OUTLINE_MAX_BYTES), outline.scope);
    outcomes.push(await outlineItem(item, source, matcher, item.content === undefined ? stampKey(item.path) : undefined));
  }
  return outcomes;
}

const started = workerData as WorkerOptions | undefined;
if (started?.background) runInBackground();
// Once this thread has answered its first messages' turn: a search that comes first is not held up long.
if (started?.grammars.length) setImmediate(() => warmGrammars(started.grammars).catch(() => undefined));

/** A directory listed as the calling thread lists it (directory.ts), its entries by name and kind; undefined when it cannot be. */
function listed({ path, follow }: DirectoryItem): ListedDirectory {
  try {
    const { real, entries } = listDirectorySync(path, follow);
    return { real, entries: entries.map((entry) => [entry.name, entryKind(entry)]) };
  } catch {
    return undefined;
  }
}

parentPort?.on('message', (request: BatchRequest) => {
  void answer(request);
});

async function answer(request: BatchRequest): Promise<void> {
  const job = prepare(request.specKey, request.spec);
  if ('stamps' in job) {
    const packed = packStamps((request.items as string[]).map(statStamp));
    parentPort!.postMessage({ batchId: request.batchId, outcomes: packed } satisfies BatchResult, [packed.buffer]);
    return;
  }
  let outcomes: boolean[] | FileOutcome[] | OutlineOutcome[] | ListedDirectory[];
  if ('directories' in job) {
    outcomes = (request.items as DirectoryItem[]).map(listed);
  } else if ('outline' in job) {
    outcomes = await outlineBatch(request.items as OutlineItem[], job);
  } else if ('nameTest' in job) {
    outcomes = (request.items as string[]).map((name) => job.nameTest(name));
  } else {
    const declaring = pageOptions(job.spec.search, request.pageRoom);
    const options = declaring.declarations ? { ...declaring, declarations: false } : declaring;
    const fallbacks = request.fallbacks === true && job.fallbacks.length > 0;
    outcomes = (request.items as FileItem[]).map((file) => searchFile(file, job, declaring, options, fallbacks));
  }
  const result: BatchResult = { batchId: request.batchId, outcomes };
  parentPort!.postMessage(result);
}
