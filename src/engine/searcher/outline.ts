/**
 * What a matching line is in: the definitions enclosing it (class / impl / trait / module › function /
 * method), read from the file's syntax tree (tree-sitter, VS Code's own WASM grammars in
 * @vscode/tree-sitter-wasm: no native module), and whether the line defines a name the pattern matches.
 * Parsed only for the files on a page, once it is known (run/grep.ts, outlinePage), in the search
 * workers, at most OUTLINE_MAX_BYTES and PARSE_BUDGET_MS per file; a file's definitions are kept by its
 * stamp, so paging through it parses it once. docs/tools.md, "Definitions", says how an answer prints them.
 */
import { keepNewest } from '../api/kept';
import * as fs from 'fs';
import * as nodePath from 'path';
import type { LineResult } from '../api/types';
import type { Matcher } from '../matcher/matcher';
import type { ReadOutcome } from './reader';
import { decodeText } from './searcher';
import type { Language as TSLanguage, Node as TSNode, Parser as TSParser, Query as TSQuery } from '@vscode/tree-sitter-wasm';

/** Files larger than this are answered without their definitions. */
export const OUTLINE_MAX_BYTES = 512 * 1024;
/**
 * A file whose lines average more characters than this (over at least MINIFIED_MIN_BYTES) is minified,
 * or data: its definitions would name minified identifiers, and parsing it costs the most. It is answered
 * without its definitions, as a file over the size limit.
 */
const MINIFIED_LINE = 300;
const MINIFIED_MIN_BYTES = 4096;
/** A parse that takes longer than this is given up (the file is answered without its definitions). */
const PARSE_BUDGET_MS = 250;
/**
 * The same when the parse decides a cut page's order (definesMatch): longer, so that the order (and so
 * paging) does not change with the machine's load; files are bounded in size and number instead.
 */
const FIND_BUDGET_MS = 1000;
/** Definitions named at most for a line: past them the middle ones are left out ("A > m() > … > f()"). */
const MAX_CHAIN = 3;
/**
 * Files whose definitions a worker keeps (about 1 KB of definitions a file on webpack's sources, 13 KB
 * at most): a few questions on 100,000 files, each with its page and a cut page's 32 candidates, had
 * pushed a question's files out of 256 before it was asked again.
 */
const CACHED_FILES = 2048;

/** The grammars shipped (dist/wasm/, esbuild.js), by file extension. */
export const GRAMMARS: Readonly<Record<string, string>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  rs: 'rust',
  go: 'go',
  java: 'java',
  cs: 'c-sharp',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  c: 'cpp',
  h: 'cpp',
  rb: 'ruby',
  php: 'php',
};

/** One definition of a file: the rows it spans (0-based), the row and columns of its name, its label. */
export interface Definition {
  start: number;
  end: number;
  nameRow: number;
  nameStart: number;
  nameEnd: number;
  label: string;
}

/** How a line of a file was outlined, for the log: parsed now (with the time), or known from the cache. */
export interface OutlineCost {
  parsed: boolean;
  ms: number;
}

/** The grammar of a path, or undefined when the language is not one of GRAMMARS (or it is minified). */
export function grammarOf(path: string): string | undefined {
  if (/\.min\.[cm]?js$/i.test(path)) return undefined;
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : GRAMMARS[path.slice(dot + 1).toLowerCase()];
}

const text = (node: TSNode | null | undefined) => node?.text.replace(/\s+/g, ' ');
const nameOf = (node: TSNode) => node.childForFieldName('name');
const keyword = (word: string) => (node: TSNode) => {
  const name = nameOf(node);
  return name ? { name, label: `${word} ${text(name)}` } : undefined;
};
/** A class: its name alone (the most common container; other kinds keep their keyword). */
const named = (node: TSNode) => {
  const name = nameOf(node);
  return name ? { name, label: text(name)! } : undefined;
};
const callable = (node: TSNode) => {
  const name = nameOf(node);
  return name ? { name, label: `${text(name)}()` } : undefined;
};
/** A JS/TS variable or field holding a function: `const f = () => …`. */
const boundFunction = (field: string) => (node: TSNode) => {
  const value = node.childForFieldName('value');
  const name = node.childForFieldName(field);
  if (!name || !value || !/^(arrow_function|function_expression|function|generator_function)$/.test(value.type)) return undefined;
  return { name, label: `${text(name)}()` };
};
/** A C++ function's name: down its declarators to the identifier. */
const cppFunction = (node: TSNode) => {
  let declarator = node.childForFieldName('declarator');
  while (declarator && !/identifier$|^destructor_name$|^operator_name$/.test(declarator.type)) declarator = declarator.childForFieldName('declarator');
  return declarator ? { name: declarator, label: `${text(declarator)}()` } : undefined;
};
const withBody = (word: string) => (node: TSNode) => (node.childForFieldName('body') ? keyword(word)(node) : undefined);

type Describe = (node: TSNode) => { name: TSNode; label: string } | undefined;

const SCRIPT: Record<string, Describe> = {
  class_declaration: named,
  abstract_class_declaration: named,
  class: named,
  interface_declaration: keyword('interface'),
  enum_declaration: keyword('enum'),
  type_alias_declaration: keyword('type'),
  internal_module: keyword('namespace'),
  module: keyword('module'),
  function_declaration: callable,
  generator_function_declaration: callable,
  function_expression: callable,
  method_definition: callable,
  method_signature: callable,
  abstract_method_signature: callable,
  variable_declarator: boundFunction('name'),
  public_field_definition: boundFunction('name'),
  field_definition: boundFunction('property'),
};

/** Per grammar: the node types that are definitions, and how each is named. */
const DEFINITIONS: Record<string, Record<string, Describe>> = {
  typescript: SCRIPT,
  tsx: SCRIPT,
  javascript: SCRIPT,
  python: { class_definition: named, function_definition: callable },
  rust: {
    impl_item: (node) => {
      const type = node.childForFieldName('type');
      const trait = node.childForFieldName('trait');
      return type ? { name: type, label: `impl ${trait ? `${text(trait)} for ` : ''}${text(type)}` } : undefined;
    },
    struct_item: keyword('struct'),
    enum_item: keyword('enum'),
    union_item: keyword('union'),
    trait_item: keyword('trait'),
    mod_item: keyword('mod'),
    function_item: callable,
    function_signature_item: callable,
    macro_definition: keyword('macro_rules!'),
  },
  go: {
    function_declaration: callable,
    method_declaration: (node) => {
      const name = nameOf(node);
      const receiver = node.childForFieldName('receiver');
      return name ? { name, label: `${receiver ? `${text(receiver)} ` : ''}${text(name)}()` } : undefined;
    },
    type_spec: keyword('type'),
  },
  java: {
    class_declaration: named,
    interface_declaration: keyword('interface'),
    enum_declaration: keyword('enum'),
    record_declaration: keyword('record'),
    annotation_type_declaration: keyword('@interface'),
    method_declaration: callable,
    constructor_declaration: callable,
  },
  'c-sharp': {
    class_declaration: named,
    struct_declaration: keyword('struct'),
    interface_declaration: keyword('interface'),
    enum_declaration: keyword('enum'),
    record_declaration: keyword('record'),
    namespace_declaration: keyword('namespace'),
    method_declaration: callable,
    constructor_declaration: callable,
    local_function_statement: callable,
  },
  cpp: {
    class_specifier: (node) => (node.childForFieldName('body') ? named(node) : undefined),
    struct_specifier: withBody('struct'),
    union_specifier: withBody('union'),
    enum_specifier: withBody('enum'),
    namespace_definition: keyword('namespace'),
    function_definition: cppFunction,
  },
  ruby: {
    class: named,
    module: keyword('module'),
    method: callable,
    singleton_method: (node) => {
      const name = nameOf(node);
      return name ? { name, label: `self.${text(name)}()` } : undefined;
    },
  },
  php: {
    class_declaration: named,
    interface_declaration: keyword('interface'),
    trait_declaration: keyword('trait'),
    enum_declaration: keyword('enum'),
    namespace_definition: keyword('namespace'),
    function_definition: callable,
    method_declaration: callable,
  },
};

/** Where the grammars are: dist/wasm/ beside the bundle, else the package in node_modules (tests run from out/). */
function wasmDirectory(): string {
  const shipped = nodePath.join(__dirname, 'wasm');
  if (fs.existsSync(nodePath.join(shipped, 'tree-sitter.wasm'))) return shipped;
  return nodePath.join(__dirname, '..', '..', '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
}

interface Runtime {
  parser: TSParser;
  languages: Map<string, Promise<TSLanguage | undefined>>;
  Language: typeof TSLanguage;
  Query: typeof TSQuery;
  /** Per grammar, the query that captures its definition nodes (definitionQuery). */
  queries: Map<string, TSQuery>;
  directory: string;
}

let runtime: Promise<Runtime | undefined> | undefined;

/** The tree-sitter runtime, loaded once per thread on first use; undefined when it cannot load. */
function loadRuntime(): Promise<Runtime | undefined> {
  runtime ??= (async () => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Parser, Language, Query } = require('@vscode/tree-sitter-wasm') as typeof import('@vscode/tree-sitter-wasm');
      const directory = wasmDirectory();
      await Parser.init({ locateFile: (file: string) => nodePath.join(directory, file) });
      return { parser: new Parser(), languages: new Map(), Language, Query, queries: new Map(), directory };
    } catch {
      return undefined;
    }
  })();
  return runtime;
}

/**
 * The query that captures a grammar's definition nodes (the kinds of DEFINITIONS it has, and Python's
 * decorated definitions), compiled once per thread: the tree is searched inside the WASM module, and only
 * the definitions cross into JavaScript (walking every node from here cost as much as the parse).
 */
function definitionQuery(rt: Runtime, language: TSLanguage, grammar: string): TSQuery {
  let query = rt.queries.get(grammar);
  if (!query) {
    const kinds = [...Object.keys(DEFINITIONS[grammar] ?? {}), 'decorated_definition'].filter((kind) => language.idForNodeType(kind, true));
    query = new rt.Query(language, `[${kinds.map((kind) => `(${kind})`).join(' ')}] @definition`);
    rt.queries.set(grammar, query);
  }
  return query;
}

function loadLanguage(rt: Runtime, grammar: string): Promise<TSLanguage | undefined> {
  let language = rt.languages.get(grammar);
  if (!language) {
    language = rt.Language.load(nodePath.join(rt.directory, `tree-sitter-${grammar}.wasm`)).catch(() => undefined);
    rt.languages.set(grammar, language);
  }
  return language;
}

/** A few lines each grammar parses once when warmed: a class, a method, a function. */
const WARM_SOURCE = 'class A {\n  m() {\n    return 1;\n  }\n}\nfunction f(x) {\n  return x;\n}\ndef g(y):\n    return y\n';

/**
 * Loads the runtime and these grammars in this thread and parses a few lines with each, before any search
 * asks: a window's first page of definitions then waits for no grammar to load, nor for the parse's code
 * to be compiled.
 */
export async function warmGrammars(grammars: readonly string[]): Promise<void> {
  for (const grammar of grammars) await parseDefinitions(WARM_SOURCE, grammar);
}

/** The definitions of a file's text, outermost first (by start); undefined when it could not be parsed in time. */
export async function parseDefinitions(source: string, grammar: string, budgetMs = PARSE_BUDGET_MS): Promise<Definition[] | undefined> {
  const rt = await loadRuntime();
  const language = rt && (await loadLanguage(rt, grammar));
  if (!rt || !language) return undefined;
  rt.parser.setLanguage(language);
  const until = Date.now() + budgetMs;
  let tree;
  try {
    tree = rt.parser.parse(source, null, { progressCallback: () => Date.now() > until } as never);
  } catch {
    return undefined;
  }
  if (!tree) return undefined;
  try {
    return collectDefinitions(definitionQuery(rt, language, grammar).captures(tree.rootNode), DEFINITIONS[grammar] ?? {});
  } finally {
    tree.delete();
  }
}

/** The definitions among a query's captured nodes, outermost first (a node before those inside it). */
function collectDefinitions(captured: ReadonlyArray<{ node: TSNode }>, kinds: Record<string, Describe>): Definition[] {
  const nodes = captured.map(({ node }) => node).sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const found: Definition[] = [];
  for (const node of nodes) {
    const type = node.type;
    // A Python definition under its decorators is taken once, with them (decorated_definition).
    if (type !== 'decorated_definition' && node.parent?.type === 'decorated_definition') continue;
    const described = (type === 'decorated_definition' ? decorated(kinds) : kinds[type])(node);
    if (!described) continue;
    const { name, label } = described;
    found.push({
      start: node.startPosition.row,
      end: node.endPosition.row,
      nameRow: name.startPosition.row,
      nameStart: name.startPosition.column,
      nameEnd: name.startPosition.row === name.endPosition.row ? name.endPosition.column : Number.MAX_SAFE_INTEGER,
      label: label.length > 80 ? `${label.slice(0, 79)}…` : label,
    });
  }
  return found;
}

/** A decorated Python definition: named as the definition it decorates, spanning its decorators. */
function decorated(kinds: Record<string, Describe>): Describe {
  return (node) => {
    const inner = node.childForFieldName('definition');
    const describe = inner && kinds[inner.type];
    return describe ? describe(inner) : undefined;
  };
}

interface Cached {
  stamp: string;
  definitions: Definition[] | undefined;
  /** The time the parse had: a file not parsed in it is parsed again when given more. */
  budget: number;
  /** Whether the file defines a name the last pattern asked (definesMatch) matches, by the pattern's key. */
  defines?: { pattern: string; value: boolean };
}

const cache = new Map<string, Cached>();
/** Parses under way, by path: a second batch asking for the same file and stamp waits for the first one's parse. */
const parsing = new Map<string, { stamp: string; budget: number; done: Promise<Definition[] | undefined> }>();

/**
 * A file's text, or how to read it (once): a search worker reads a file only when a parse or a line's
 * text needs it, not for definitions it keeps by the file's stamp. Undefined: it could not be read.
 */
export type SourceText = string | typeof TOO_LARGE | (() => string | typeof TOO_LARGE | undefined);

/** What a SourceText gives for a file over OUTLINE_MAX_BYTES: its definitions are not named, whatever its stamp. */
export const TOO_LARGE = Symbol('too large to outline');

/** A file read for its outline (capped at OUTLINE_MAX_BYTES) as its SourceText: its text, TOO_LARGE, or undefined (unreadable, binary). */
export function sourceOfRead(read: ReadOutcome): string | typeof TOO_LARGE | undefined {
  return read.kind === 'bytes' ? decodeText(read.bytes) : read.kind === 'too_large' ? TOO_LARGE : undefined;
}

/** Whether a text's lines average more than MINIFIED_LINE characters (it stops counting lines once there are enough). */
export function looksMinified(text: string): boolean {
  if (text.length < MINIFIED_MIN_BYTES) return false;
  const needed = Math.floor(text.length / MINIFIED_LINE);
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && lines < needed; at = text.indexOf('\n', at + 1)) lines++;
  return lines < needed;
}

/** The text, read if it was not; undefined when it cannot be read or is over what is outlined. */
function textOf(source: SourceText): string | typeof TOO_LARGE | undefined {
  const text = typeof source === 'function' ? source() : source;
  return typeof text === 'string' && text.length > OUTLINE_MAX_BYTES ? TOO_LARGE : text;
}

/** A file's lines, when its text can be had and is outlined. */
function rowsOf(source: SourceText): string[] | undefined {
  const text = textOf(source);
  return typeof text === 'string' ? text.split('\n') : undefined;
}

/**
 * A file's definitions, from the cache when its stamp is the one kept (`parsed`: it was parsed now);
 * `unread` when its text could not be had; `unnamed` when a file's definitions are not named at all (it is
 * minified, or over OUTLINE_MAX_BYTES: kept so for any budget, and not read again while unchanged).
 */
async function definitionsOf(
  path: string,
  source: SourceText,
  grammar: string,
  stamp: string | undefined,
  budget = PARSE_BUDGET_MS,
): Promise<{ definitions: Definition[] | undefined; parsed: boolean; unread?: true; unnamed?: true }> {
  const known = stamp === undefined ? undefined : cache.get(path);
  if (known && known.stamp === stamp && (known.definitions !== undefined || known.budget >= budget)) {
    cache.delete(path);
    cache.set(path, known); // most recently used last
    return { definitions: known.definitions, parsed: false, ...(known.budget === Infinity ? { unnamed: true } : {}) };
  }
  const under = stamp === undefined ? undefined : parsing.get(path);
  if (under && under.stamp === stamp && under.budget >= budget) return { definitions: await under.done, parsed: false };
  const text = textOf(source);
  if (text === undefined) return { definitions: undefined, parsed: false, unread: true };
  const unnamed = text === TOO_LARGE || looksMinified(text);
  if (unnamed) budget = Infinity;
  const done = text === TOO_LARGE || unnamed ? Promise.resolve(undefined) : parseDefinitions(text, grammar, budget);
  if (stamp === undefined) return { definitions: await done, parsed: !unnamed, ...(unnamed ? { unnamed } : {}) };
  parsing.set(path, { stamp, budget, done });
  let definitions: Definition[] | undefined;
  try {
    definitions = await done;
  } finally {
    if (parsing.get(path)?.done === done) parsing.delete(path);
  }
  keepNewest(cache, path, { stamp, definitions, budget }, CACHED_FILES);
  return { definitions, parsed: !unnamed, ...(unnamed ? { unnamed } : {}) };
}

/**
 * Whether the file defines a name the pattern matches anywhere (a definition whose name a match on its
 * row overlaps), and what it cost; undefined when the file has no grammar, is too large or could not be parsed.
 */
export async function definesMatch(
  path: string,
  source: SourceText,
  matcher: Matcher,
  stamp: string | undefined,
): Promise<{ defines: boolean; cost: OutlineCost } | undefined> {
  const grammar = grammarOf(path);
  if (!grammar || matcher.multiline) return undefined;
  const started = Date.now();
  const { definitions, parsed, unnamed } = await definitionsOf(path, source, grammar, stamp, FIND_BUDGET_MS);
  if (unnamed) return { defines: false, cost: { parsed, ms: Date.now() - started } };
  if (!definitions) return undefined;
  // Kept with the file's definitions: the same file and pattern asked again (a question repeated, paged) is not read.
  const kept = stamp === undefined ? undefined : cache.get(path);
  const entry = kept?.stamp === stamp ? kept : undefined;
  const pattern = `${matcher.lineRegex.flags}\n${matcher.lineRegex.source}`;
  if (entry?.defines?.pattern === pattern) return { defines: entry.defines.value, cost: { parsed, ms: Date.now() - started } };
  let rows: string[] | undefined;
  const tested = new Set<number>();
  let defines = false;
  for (const definition of definitions) {
    if (tested.has(definition.nameRow)) continue;
    tested.add(definition.nameRow);
    rows ??= rowsOf(source);
    if (!rows) return undefined;
    if (definesName(rows[definition.nameRow] ?? '', definitions, definition.nameRow, matcher)) {
      defines = true;
      break;
    }
  }
  if (entry) entry.defines = { pattern, value: defines };
  return { defines, cost: { parsed, ms: Date.now() - started } };
}

/**
 * Sets on each of a file's reported lines the definitions enclosing it (`in`, outermost first, leaving
 * out one that the line itself begins) and whether it defines a name the pattern matches (`defines`).
 * `stamp` keys the cache (undefined: the text is not the file on disk). Returns what it cost, or
 * undefined when the file has no grammar, is too large or could not be parsed (its lines are left as they are).
 */
export async function outlineLines(
  path: string,
  source: SourceText,
  lines: readonly LineResult[],
  matcher: Matcher | undefined,
  stamp: string | undefined,
): Promise<OutlineCost | undefined> {
  const grammar = grammarOf(path);
  if (!grammar || lines.length === 0) return undefined;
  const started = Date.now();
  const { definitions, parsed, unread } = await definitionsOf(path, source, grammar, stamp);
  if (unread) return undefined;
  if (!definitions) return { parsed, ms: Date.now() - started };
  let rows: string[] | undefined;
  for (const line of lines) {
    const row = line.line - 1;
    const chain: string[] = [];
    let own: Definition | undefined;
    for (const definition of definitions) {
      if (definition.start > row) break;
      if (definition.end < row) continue;
      if (definition.nameRow === row) own ??= definition;
      else chain.push(definition.label);
    }
    if (chain.length > 0) line.in = (chain.length > MAX_CHAIN ? [...chain.slice(0, MAX_CHAIN - 1), '…', chain[chain.length - 1]] : chain).join(' > ');
    if (own && matcher && !matcher.multiline) {
      rows ??= rowsOf(source) ?? [];
      if (definesName(rows[row] ?? '', definitions, row, matcher)) line.defines = true;
    }
  }
  return { parsed, ms: Date.now() - started };
}

/** Whether a match of the pattern on the line overlaps the name of a definition named on that row. */
function definesName(lineText: string, definitions: readonly Definition[], row: number, matcher: Matcher): boolean {
  const regex = new RegExp(matcher.lineRegex.source, `${matcher.lineRegex.flags.replace('g', '')}g`);
  const names = definitions.filter((definition) => definition.nameRow === row);
  for (let match = regex.exec(lineText); match; match = regex.exec(lineText)) {
    const start = match.index;
    const end = start + Math.max(1, match[0].length);
    if (names.some((name) => start < name.nameEnd && end > name.nameStart)) return true;
    if (match[0].length === 0) regex.lastIndex++;
  }
  return false;
}

/**
 * The definitions of a file's lines (1-based numbers), as `outlineLines` gives them: one mark per line,
 * in order, and the cost; undefined when the file has no grammar, is too large or could not be parsed.
 */
export async function outlineFile(
  path: string,
  source: SourceText,
  lineNumbers: readonly number[],
  matcher: Matcher | undefined,
  stamp: string | undefined,
): Promise<{ marks: Array<{ in?: string; defines?: boolean }>; cost: OutlineCost } | undefined> {
  const lines: LineResult[] = lineNumbers.map((line) => ({ line, text: '' }));
  const cost = await outlineLines(path, source, lines, matcher, stamp);
  if (!cost) return undefined;
  return { marks: lines.map((line) => ({ ...(line.in !== undefined ? { in: line.in } : {}), ...(line.defines ? { defines: true } : {}) })), cost };
}

/**
 * One file of an outline job (pool.ts, OutlineItem): the definitions of its lines, or (`find`) whether
 * it defines a name the pattern matches anywhere (`defines`); undefined when it was not outlined.
 */
export async function outlineItem(
  item: { path: string; lines: readonly number[]; find?: true },
  source: SourceText,
  matcher: Matcher,
  stamp: string | undefined,
): Promise<{ marks: Array<{ in?: string; defines?: boolean }>; cost: OutlineCost; defines?: boolean } | undefined> {
  if (!item.find) return outlineFile(item.path, source, item.lines, matcher, stamp);
  const found = await definesMatch(item.path, source, matcher, stamp);
  return found && { marks: [], cost: found.cost, defines: found.defines };
}
