/**
 * Input schemas of the two tools (docs/tools.md, "Inputs"). package.json's `inputSchema` entries must
 * equal these (a unit test checks it), and `validate` enforces them with messages that name the field and
 * the fix. The descriptions are written for the model and say each thing once (the tool's
 * modelDescription says what the answer holds).
 */
import { InputError } from '../api/errors';
import type { GlobInput, GrepInput } from '../api/types';

export type JsonSchemaProperty =
  | { type: 'string'; description: string; minLength?: number; maxLength?: number; enum?: string[] }
  | { type: 'integer'; description: string; minimum: number; default?: number }
  | { type: 'boolean'; description: string; default?: boolean };

export interface ObjectSchema {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required: string[];
  additionalProperties: false;
}

export const GREP_SCHEMA: ObjectSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', minLength: 1, maxLength: 2048, description: 'JavaScript regex; a leading (?i) ignores case.' },
    path: {
      type: 'string',
      maxLength: 4096,
      description: "File or directory, absolute or relative to a workspace folder (default: all); or an untitled editor's URI ('untitled:Untitled-1').",
    },
    include: {
      type: 'string',
      maxLength: 4096,
      description: "Glob of files to search. Without '/' it matches file names at any depth ('*.{ts,tsx}'); with '/' it is relative to path ('src/**/*.ts').",
    },
    exclude: { type: 'string', maxLength: 4096, description: 'Glob of files to skip, as include.' },
    output_mode: {
      type: 'string',
      enum: ['content', 'files_with_matches', 'count'],
      description: 'content (default): matching lines; files_with_matches: paths only; count: lines per file.',
    },
    case_insensitive: { type: 'boolean', description: 'Ignore case.' },
    fixed_strings: { type: 'boolean', description: 'pattern is literal text.' },
    word: { type: 'boolean', description: 'Whole words only.' },
    multiline: { type: 'boolean', description: "A match may span lines ('.' matches newlines)." },
    invert_match: { type: 'boolean', description: 'Report the lines that do not match.' },
    context_lines: { type: 'integer', minimum: 0, description: 'Lines of context before and after.' },
    before_lines: { type: 'integer', minimum: 0, description: 'Lines of context before.' },
    after_lines: { type: 'integer', minimum: 0, description: 'Lines of context after.' },
    max_results: { type: 'integer', minimum: 1, description: 'Lines (content) or files per page; default 100, at most 1000.' },
    max_matches_per_file: { type: 'integer', minimum: 1, description: 'Matching lines per file at most.' },
    offset: { type: 'integer', minimum: 0, description: 'Results to skip: the next_offset of a truncated answer.' },
    include_ignored: { type: 'boolean', description: 'Also search what .gitignore and files/search.exclude leave out (node_modules).' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

export const GLOB_SCHEMA: ObjectSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: "Glob relative to path: '*.go' only in it, '**/*.go' at any depth; *, **, ?, [abc], {a,b}. An absolute glob sets its own base.",
    },
    path: { type: 'string', maxLength: 4096, description: 'Base directory, absolute or relative to a workspace folder (default: all folders).' },
    mode: { type: 'string', enum: ['glob', 'regex'], description: 'regex: pattern is a JavaScript regex on the base-relative path.' },
    max_depth: { type: 'integer', minimum: 0, description: 'Directory levels below the base (1: the base only); 0: no limit.' },
    max_results: { type: 'integer', minimum: 1, description: 'Paths per page; default 1000.' },
    offset: { type: 'integer', minimum: 0, description: 'Paths to skip: the next_offset of a truncated answer.' },
    sort: { type: 'string', enum: ['path', 'mtime'], description: 'path (default), or mtime: newest first, each with its time.' },
    include_ignored: { type: 'boolean', description: 'Also list what .gitignore and files/search.exclude leave out.' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

function describeAllowed(prop: JsonSchemaProperty): string {
  if (prop.type === 'string') return prop.enum ? `one of ${prop.enum.map((v) => JSON.stringify(v)).join(', ')}` : 'a string';
  if (prop.type === 'integer') return `an integer >= ${prop.minimum}`;
  return 'true or false';
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'string' ? 'a string' : `${typeof value} ${clip(JSON.stringify(value) ?? String(value))}`;
}

/** A value or name echoed in a message, cut so a huge input cannot make a huge message. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * Checks `input` against `schema` and returns it typed. Throws an InputError naming the tool, the field
 * and the allowed values.
 */
export function validate<T>(tool: string, schema: ObjectSchema, input: unknown): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InputError(`Invalid ${tool} input: expected a JSON object such as {"pattern": "TODO"}, got ${typeName(input)}.`);
  }
  const record = input as Record<string, unknown>;
  const known = Object.keys(schema.properties);
  for (const key of Object.keys(record)) {
    if (!Object.prototype.hasOwnProperty.call(schema.properties, key)) {
      throw new InputError(`Invalid ${tool} input: unknown field ${clip(JSON.stringify(key))}. Allowed fields: ${known.join(', ')}.`);
    }
  }
  for (const key of schema.required) {
    if (record[key] === undefined) {
      throw new InputError(`Invalid ${tool} input: "${key}" is required (${describeAllowed(schema.properties[key])}).`);
    }
  }
  for (const [key, prop] of Object.entries(schema.properties)) {
    const value = record[key];
    if (value === undefined) continue;
    const bad = () => new InputError(`Invalid ${tool} input: "${key}" must be ${describeAllowed(prop)}, got ${typeName(value)}.`);
    switch (prop.type) {
      case 'string':
        if (typeof value !== 'string') throw bad();
        if (prop.enum && !prop.enum.includes(value)) throw bad();
        if (prop.minLength !== undefined && value.length < prop.minLength) {
          throw new InputError(`Invalid ${tool} input: "${key}" must not be empty.`);
        }
        if (prop.maxLength !== undefined && value.length > prop.maxLength) {
          throw new InputError(`Invalid ${tool} input: "${key}" is ${value.length} characters long, at most ${prop.maxLength} are accepted.`);
        }
        break;
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < prop.minimum) throw bad();
        break;
      case 'boolean':
        if (typeof value !== 'boolean') throw bad();
        break;
    }
  }
  return record as T;
}

/** A grep call's input, checked once where it comes in (the tools, the commands, the CLI and the MCP server); the engine takes it typed. */
export function parseGrepInput(input: unknown): GrepInput {
  return validate<GrepInput>('grep', GREP_SCHEMA, input);
}

/** A glob call's input, checked once where it comes in, as parseGrepInput. */
export function parseGlobInput(input: unknown): GlobInput {
  return validate<GlobInput>('glob', GLOB_SCHEMA, input);
}
