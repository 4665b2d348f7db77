/**
 * A search worker (worker_threads): reads files, prefilters their bytes and searches them (or searches
 * the content it was sent), tests names against glob's regex, or takes files' stamps, so the extension
 * host's main thread stays free and a runaway regex can be stopped. One message in, one message out per
 * batch.
 */
import { parentPort, workerData } from 'worker_threads';
import { runInBackground } from './background';
import { relativeGlobTest } from '../globset/globs';
import { compileMatcher, type Matcher } from '../matcher/matcher';
import { readFileCappedSync } from '../searcher/reader';
import { fileStamp, grammarOf, outlineLines, OUTLINE_MAX_BYTES } from '../searcher/outline';
import { compilePrefilter, decodeText, pageOptions, searchBytes, searchText, type FileMatches, type SearchOptions } from '../searcher/searcher';
import { packStamps, statStamp } from '../source/fileStamp';
import { SPECS_KEPT, type BatchRequest, type BatchResult, type FileItem, type FileOutcome, type JobSpec, type SearchSpec, type WorkerOptions } from './pool';

interface PreparedSearch {
  spec: SearchSpec;
  matcher: Matcher;
  prefilter: ((bytes: Uint8Array) => boolean) | undefined;
}

type Prepared = PreparedSearch | { nameTest: (name: string) => boolean } | { stamps: true };

/** The specs this worker was sent, by key, oldest first: the pool sends each one once (pool.ts). */
const prepared = new Map<string, Prepared>();

function prepare(key: string, spec: JobSpec | undefined): Prepared {
  if (spec) {
    if ('stamps' in spec) {
      prepared.set(key, spec);
    } else if ('nameRegex' in spec) {
      const regex = new RegExp(spec.nameRegex, 'u');
      prepared.set(key, { nameTest: (name) => regex.test(name) });
    } else if ('nameGlob' in spec) {
      prepared.set(key, { nameTest: relativeGlobTest(spec.nameGlob) });
    } else {
      const matcher = compileMatcher(spec.pattern, spec.matcher);
      prepared.set(key, { spec, matcher, prefilter: compilePrefilter(matcher) });
    }
    if (prepared.size > SPECS_KEPT) prepared.delete(prepared.keys().next().value!);
  }
  const entry = prepared.get(key);
  if (!entry) throw new Error(`A search worker was not sent the search ${key}.`);
  return entry;
}

/** One read buffer for all files (they are at most maxFileSize): memory stays flat whatever the tree. */
let scratch = Buffer.allocUnsafe(64 * 1024);
function lend(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  return scratch;
}

/** A file on the page whose lines are to be given their definitions once the batch is searched. */
interface OutlineTask {
  path: string;
  source: string;
  found: FileMatches;
  onDisk: boolean;
}

/** The time a batch may spend outlining its files: past it, the rest answer without their definitions. */
const OUTLINE_BATCH_MS = 1000;

/** The page's room left in a batch: a file past it is not on the page, and is not outlined. */
interface OutlineRoom {
  lines: number;
  tasks: OutlineTask[];
}

function searchFile(item: FileItem, { spec, matcher, prefilter }: PreparedSearch, options: SearchOptions, room: OutlineRoom): FileOutcome {
  let found: ReturnType<typeof searchBytes>;
  let bytes: Uint8Array | undefined;
  let source: string | undefined;
  const path = typeof item === 'string' ? item : item.path;
  if (typeof item !== 'string') {
    if (typeof item.content === 'string') {
      source = item.content;
      found = searchText(source, matcher, options);
    } else {
      bytes = item.content;
      found = searchBytes(bytes, matcher, prefilter, options);
    }
  } else {
    const read = readFileCappedSync(item, spec.maxFileSize, lend, spec.scope);
    if (read.kind !== 'bytes') return read.kind;
    bytes = read.bytes;
    found = searchBytes(bytes, matcher, prefilter, options);
  }
  if (found === 'binary' || found.count === 0) return found === 'binary' ? found : 0;
  // The page's files in a language with a grammar: their text is kept (the read buffer is reused) for outlining.
  if (options.outline && found.lines.length > 0 && room.lines > 0 && grammarOf(path) && (source ?? bytes!).length <= OUTLINE_MAX_BYTES) {
    source ??= decodeText(bytes!);
    if (source !== undefined) room.tasks.push({ path, source, found, onDisk: typeof item === 'string' });
  }
  room.lines -= found.lines.length;
  return found;
}

/** Gives the page's lines their definitions (outline.ts), one file after the other. */
async function outline(tasks: OutlineTask[], matcher: Matcher): Promise<void> {
  const until = Date.now() + OUTLINE_BATCH_MS;
  for (const task of tasks) {
    if (Date.now() > until) break;
    const cost = await outlineLines(task.path, task.source, task.found.lines, matcher, task.onDisk ? fileStamp(task.path) : undefined);
    if (cost) task.found.outline = cost;
  }
}

if ((workerData as WorkerOptions | undefined)?.background) runInBackground();

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
  let outcomes: boolean[] | FileOutcome[];
  if ('nameTest' in job) {
    outcomes = (request.items as string[]).map((name) => job.nameTest(name));
  } else {
    const options = pageOptions(job.spec.search, request.pageRoom);
    const room: OutlineRoom = { lines: request.pageRoom, tasks: [] };
    outcomes = (request.items as FileItem[]).map((file) => searchFile(file, job, options, room));
    if (room.tasks.length > 0) await outline(room.tasks, job.matcher);
  }
  const result: BatchResult = { batchId: request.batchId, outcomes };
  parentPort!.postMessage(result);
}
