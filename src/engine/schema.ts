/**
 * Input schemas of the two tools (SPEC §2, §4). package.json's `inputSchema` entries must equal these
 * (a unit test checks it), and `validate` enforces them with messages that name the field and the fix.
 */

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
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description:
        'Regular expression (JavaScript syntax) to search for in file contents. A leading inline flag group such as (?i) is applied. Use fixed_strings for a literal string.',
    },
    path: {
      type: 'string',
      maxLength: 4096,
      description:
        "File or directory to search: absolute, or relative to a workspace folder (in a multi-root workspace a leading folder name selects that folder). Default: all workspace folders. An unsaved untitled editor is searched only when named here, by its URI as in 'untitled:Untitled-1'; the answer names it so.",
    },
    include: {
      type: 'string',
      maxLength: 4096,
      description:
        "Glob of files to search, e.g. '*.ts', '**/*.md', 'src/**/*.{ts,tsx}'. A glob without '/' matches the file name at any depth.",
    },
    exclude: { type: 'string', maxLength: 4096, description: 'Glob of files to skip, same syntax as include.' },
    output_mode: {
      type: 'string',
      enum: ['content', 'files_with_matches', 'count'],
      description:
        "'content' (default): matching lines with line numbers; 'files_with_matches': only the paths of files that match; 'count': number of matching lines per file.",
    },
    case_insensitive: { type: 'boolean', default: false, description: 'Ignore case when matching.' },
    fixed_strings: { type: 'boolean', default: false, description: 'Treat pattern as a literal string, not a regex.' },
    word: { type: 'boolean', default: false, description: 'Match whole words only.' },
    multiline: {
      type: 'boolean',
      default: false,
      description: "Let the pattern match across lines ('.' also matches newlines). A match is reported at its first line.",
    },
    invert_match: { type: 'boolean', default: false, description: 'Report the lines that do NOT match.' },
    context_lines: { type: 'integer', minimum: 0, description: 'Lines of context before and after each match.' },
    before_lines: { type: 'integer', minimum: 0, description: 'Lines of context before each match.' },
    after_lines: { type: 'integer', minimum: 0, description: 'Lines of context after each match.' },
    max_results: {
      type: 'integer',
      minimum: 1,
      description:
        'Maximum results to return: matching lines (content) or files (files_with_matches, count). Default 100, capped at 1000.',
    },
    max_matches_per_file: { type: 'integer', minimum: 1, description: 'Stop after this many matching lines in one file.' },
    offset: {
      type: 'integer',
      minimum: 0,
      description: 'Skip this many results first; pass the next_offset of a truncated answer to get the next page.',
    },
    include_ignored: {
      type: 'boolean',
      default: false,
      description:
        'Also search files excluded by files.exclude / search.exclude (e.g. node_modules). Denied paths stay denied.',
    },
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
      description:
        "Glob relative to the base directory ('*.go' matches only in the base, '**/*.go' at any depth; supports *, **, ?, [abc], {a,b}), or an absolute glob whose static prefix becomes the base.",
    },
    path: {
      type: 'string',
      maxLength: 4096,
      description:
        'Base directory: absolute, or relative to a workspace folder (a leading folder name selects that folder in a multi-root workspace). Default: all workspace folders.',
    },
    mode: {
      type: 'string',
      enum: ['glob', 'regex'],
      description: "'glob' (default), or 'regex': pattern is a JavaScript regex tested against the base-relative path.",
    },
    max_depth: {
      type: 'integer',
      minimum: 0,
      description: 'Maximum directory depth below the base (1 = only files directly in the base). 0 = unlimited.',
    },
    max_results: { type: 'integer', minimum: 1, description: 'Maximum paths to return. Default 1000.' },
    offset: {
      type: 'integer',
      minimum: 0,
      description: 'Skip this many paths first; pass the next_offset of a truncated answer to get the next page.',
    },
    sort: {
      type: 'string',
      enum: ['path', 'mtime'],
      description: "'path' (default): workspace folder order, then path; 'mtime': most recently modified first.",
    },
    include_ignored: {
      type: 'boolean',
      default: false,
      description: 'Also list files excluded by files.exclude / search.exclude. Denied paths stay hidden.',
    },
  },
  required: ['pattern'],
  additionalProperties: false,
};

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

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
    const bad = () =>
      new InputError(`Invalid ${tool} input: "${key}" must be ${describeAllowed(prop)}, got ${typeName(value)}.`);
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
