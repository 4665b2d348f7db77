/**
 * The text the model receives from each tool (docs/tools.md, "Answers"), as the tests read it:
 * `parseAnswer` reads it back as the fields a person's JSON copy has (absolute paths: the root joined
 * with each path as the contract says); `readAnswer` also fills in what an answer leaves out by contract
 * (zero skip counters, no notes, not truncated, content mode).
 */

export interface GrepContentMatch {
  line: number;
  text: string;
  before?: string[];
  after?: string[];
  /** The definitions enclosing the line (a row before it that does not start with a digit), and whether it defines the name ("42 def: …"). */
  in?: string;
  defines?: boolean;
}

export type SkipCountsJson = { binary: number; too_large: number; denied: number; unreadable: number; outside_workspace: number };

/** What both tools' answers carry. */
interface AnswerCommon {
  pattern: string;
  /** Left out when the call gave no path (all workspace folders). */
  base_path?: string | string[];
  truncated: boolean;
  next_offset?: number;
  skipped: SkipCountsJson;
  timed_out?: boolean;
  notes: string[];
}

/** grep's answer: the union of the three output modes' fields. */
export interface GrepAnswer extends AnswerCommon {
  output_mode: string;
  /** As read back (the answer maps each path to its lines or count): content {file, matches}; count {file, count}; files_with_matches: paths. */
  files: Array<{ file: string; matches?: GrepContentMatch[]; count?: number } | string>;
  total_matches?: number;
  returned_matches?: number;
  returned_files?: number;
  files_searched: number;
  files_matched: number;
}

export interface GlobAnswer extends AnswerCommon {
  mode: string;
  files: string[];
  total: number;
}

/**
 * A file's compact lines ("42: text" results, "41- text" context) read back as results with their
 * context: context lines right after a result (consecutive numbers) are its `after`, the others the
 * next result's `before`.
 */
export function readLines(lines: readonly string[]): GrepContentMatch[] {
  const matches: GrepContentMatch[] = [];
  let pending: string[] = [];
  let previous = 0;
  let scope: string | undefined;
  for (const row of lines) {
    if (!/^\d/.test(row)) {
      // "… > m()": in the outermost definition of the row before.
      scope = row === 'top level' ? undefined : row.startsWith('… > ') ? `${scope!.split(' > ')[0]}${row.slice(1)}` : row;
      continue;
    }
    const parsed = /^(\d+)( def)?([:+-]) ([\s\S]*)$/.exec(row);
    if (!parsed) throw new Error(`not a compact line: ${JSON.stringify(row)}`);
    // "3+ text": the next line of a result spanning lines (multiline).
    if (parsed[3] === '+') {
      matches[matches.length - 1].text += `\n${parsed[4]}`;
      continue;
    }
    const line = Number(parsed[1]);
    const text = parsed[4];
    const last = matches[matches.length - 1];
    if (parsed[3] === ':') {
      matches.push({
        line,
        text,
        ...(pending.length > 0 ? { before: pending } : {}),
        ...(scope !== undefined ? { in: scope } : {}),
        ...(parsed[2] ? { defines: true } : {}),
      });
      pending = [];
    } else if (last && pending.length === 0 && line === previous + 1) {
      (last.after ??= []).push(text);
    } else {
      pending.push(text);
    }
    previous = line;
  }
  return matches;
}

const NUMBERS = new Set(['total_matches', 'returned_matches', 'returned_files', 'files_matched', 'files_searched', 'next_offset', 'total']);

/** A path as the answer names it, made absolute as a model would: root, its separator, the path; a path written whole (or as a JSON string) as it is. */
function absolute(root: string | undefined, written: string): string {
  const path = written.startsWith('"') ? (JSON.parse(written) as string) : written;
  if (root === undefined || path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || /^[a-z][\w+.-]*:/.test(path)) return path;
  if (path === '.') return root;
  return `${root}${root.startsWith('/') || !root.includes('\\') ? '/' : '\\'}${path}`;
}

/**
 * The answer's text (docs/tools.md, "Answers") read back as the fields of the JSON copy: `root` and the
 * other `key: value` lines (numbers as numbers, `skipped` as its counters, `truncated: true` beside
 * `next_offset`), `files` as an object from each absolute path to its lines, count or time (content,
 * count, glob's mtime) or a list of absolute paths, and `notes`. A person's JSON copy is read as it is.
 * Throws on text that is not an answer.
 */
// The fields as JSON.parse gave them before the answers were text: any, for the tests that index them freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function parseAnswer(text: string): any {
  // A person's copy ("copy as JSON", printGrep / printGlob) is JSON with absolute paths already.
  if (text.startsWith('{')) return JSON.parse(text);
  // The CLI prints the answer with a line break after it.
  const lines = text.replace(/\n$/, '').split('\n');
  const blocks: string[][] = [[]];
  for (const line of lines) {
    if (line === '') blocks.push([]);
    else blocks[blocks.length - 1].push(line);
  }
  const [head, ...rest] = blocks;
  const fields: Record<string, unknown> = {};
  for (const line of head) {
    const parsed = /^([a-z_]+): ([\s\S]*)$/.exec(line);
    if (!parsed) throw new Error(`not a field line of an answer: ${JSON.stringify(line)} in ${JSON.stringify(text)}`);
    const [, key, value] = parsed;
    if (key === 'base_path') fields.base_path = fields.base_path === undefined ? value : [fields.base_path as string].flat().concat(value);
    else if (key === 'skipped') fields.skipped = Object.fromEntries(value.split(', ').map((kv) => [kv.split(' ')[0], Number(kv.split(' ')[1])]));
    else if (key === 'timed_out') fields.timed_out = value === 'true';
    else if (NUMBERS.has(key)) fields[key] = Number(value);
    else fields[key] = value;
  }
  const root = fields.root as string | undefined;
  if (fields.base_path !== undefined)
    fields.base_path = Array.isArray(fields.base_path) ? fields.base_path.map((p: string) => absolute(root, p)) : absolute(root, fields.base_path as string);
  if (fields.next_offset !== undefined) fields.truncated = true;
  const notes = rest.length > 0 && rest[rest.length - 1][0]?.startsWith('note: ') ? rest.pop()!.map((line) => line.slice('note: '.length)) : [];
  const fileBlocks = rest.filter((block) => block.length > 0);
  const isGrep = 'files_searched' in fields;
  const mode = isGrep ? ((fields.output_mode as string | undefined) ?? 'content') : 'glob';
  let files: Record<string, string[] | number | string> | string[];
  if (mode === 'content') {
    files = {};
    for (const [path, ...rows] of fileBlocks) files[absolute(root, path)] = rows;
  } else {
    const listed = fileBlocks.flat();
    const valued = mode === 'count' ? /^([\s\S]+): (\d+)$/ : /^([\s\S]+): (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/;
    if (mode === 'count' || (mode === 'glob' && listed.length > 0 && listed.every((line) => valued.test(line)))) {
      files = {};
      for (const line of listed) {
        const [, path, value] = valued.exec(line)!;
        files[absolute(root, path)] = mode === 'count' ? Number(value) : value;
      }
    } else files = listed.map((path) => absolute(root, path));
  }
  return { ...fields, files, ...(notes.length > 0 ? { notes } : {}) };
}

/** The answer text parsed, with the fields an answer leaves out when they say nothing set to their meaning. */
export function readAnswer<T extends GrepAnswer | GlobAnswer>(text: string): T {
  const answer = parseAnswer(text) as Partial<AnswerCommon> & Record<string, unknown>;
  const zero: SkipCountsJson = { binary: 0, too_large: 0, denied: 0, unreadable: 0, outside_workspace: 0 };
  const filled: Record<string, unknown> = {
    ...answer,
    truncated: answer.truncated === true,
    skipped: { ...zero, ...answer.skipped },
    notes: answer.notes ?? [],
  };
  if (!('output_mode' in answer) && !('files_searched' in answer)) {
    filled.mode = answer.mode ?? 'glob';
    // A whole page leaves out its total: the files listed.
    filled.total ??= (answer.files as unknown[]).length;
    // sort "mtime" maps each path to its time: the tests read the paths (the times are checked on the raw answer).
    filled.files = Array.isArray(answer.files) ? answer.files : Object.keys(answer.files as object);
  } else {
    // returned_matches / returned_files are printed only for a cut page: otherwise the page holds every result.
    const mode = (filled.output_mode = answer.output_mode ?? 'content');
    // content maps each path to its compact lines, count to its count; files_with_matches lists paths.
    const files = (
      Array.isArray(answer.files)
        ? answer.files
        : Object.entries(answer.files as Record<string, string[] | number>).map(([file, value]) =>
            typeof value === 'number' ? { file, count: value } : { file, matches: readLines(value) },
          )
    ) as Array<{ file: string; matches?: unknown[] } | string>;
    filled.files = files;
    // A whole page leaves out its counts: every result is on it.
    if (mode === 'content') filled.returned_matches ??= files.reduce((n, f) => n + (typeof f === 'string' ? 0 : (f.matches?.length ?? 0)), 0);
    else filled.returned_files ??= files.length;
    if (mode === 'content') filled.total_matches ??= filled.returned_matches;
    filled.files_matched ??= files.length;
  }
  return filled as unknown as T;
}
