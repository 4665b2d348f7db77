/** Helpers shared by the unit tests: temp fixture trees and a SearchEnvironment built like the CLI's. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as nodePath from 'path';
import { DEFAULT_CONFIG, type EngineConfig } from '../../src/engine/api/config';
import { InputError } from '../../src/engine/api/errors';
import { answerGlob } from '../../src/engine/answer/globAnswer';
import { parseGlobInput, parseGrepInput } from '../../src/engine/input/schema';
import { type SearchEnvironment } from '../../src/engine/run/environment';
import { answerGrep } from '../../src/engine/answer/grepAnswer';
import { byteBudget } from '../../src/engine/answer/budget';
import { renderGlob, renderGrep } from '../../src/engine/answer/printer';
import { readFileCapped } from '../../src/engine/searcher/reader';
import type { WorkspaceFolder } from '../../src/engine/guard/roots';
import { NodeFileSource } from '../../src/engine/source/walker';
import { parseAnswer, readAnswer, type GlobAnswer, type GrepAnswer, type GrepContentMatch } from '../support/answers';

/** A temp directory (real path, so symlinked tmp dirs do not confuse path checks), removed by `remove()`. */
export class Fixture {
  readonly root: string;

  constructor(prefix = 'grep-tools-unit-') {
    this.root = fs.realpathSync(fs.mkdtempSync(nodePath.join(os.tmpdir(), prefix)));
  }

  /** Absolute path of a '/'-separated path below the root. */
  path(relative = ''): string {
    return relative ? nodePath.join(this.root, ...relative.split('/')) : this.root;
  }

  /** Writes a file (creating its directories) and returns its absolute path. */
  write(relative: string, content: string | Uint8Array = ''): string {
    const absolute = this.path(relative);
    fs.mkdirSync(nodePath.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
    return absolute;
  }

  /** Writes several files at once. */
  files(tree: Record<string, string | Uint8Array>): void {
    for (const [relative, content] of Object.entries(tree)) this.write(relative, content);
  }

  mkdir(relative: string): string {
    const absolute = this.path(relative);
    fs.mkdirSync(absolute, { recursive: true });
    return absolute;
  }

  /** Creates a symlink at `relative` pointing to `target` (absolute, or relative to the link's directory). */
  symlink(target: string, relative: string): string {
    const absolute = this.path(relative);
    fs.mkdirSync(nodePath.dirname(absolute), { recursive: true });
    fs.symlinkSync(target, absolute);
    return absolute;
  }

  /** Sets the modification time (seconds since the epoch) of a file. */
  touch(relative: string, seconds: number): void {
    fs.utimesSync(this.path(relative), seconds, seconds);
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

export interface EnvOptions {
  config?: Partial<EngineConfig>;
  allowOutside?: boolean;
  isCancelled?: () => boolean;
}

/** A path written with '/' below a fixture directory (`${ws}/src/a.ts`), spelled as this platform's answers spell it. */
export function native(path: string): string {
  return nodePath.sep === '/' ? path : path.replace(/\//g, nodePath.sep);
}

/** Workspace folders named after their directory, as the CLI names them. */
export function folders(...paths: string[]): WorkspaceFolder[] {
  return paths.map((path) => ({ name: nodePath.basename(path), path }));
}

/** The environment the CLI builds: Node walker, capped reader, default config (overridable). */
export function makeEnv(workspace: string | WorkspaceFolder[], options: EnvOptions = {}): SearchEnvironment {
  return {
    folders: typeof workspace === 'string' ? folders(workspace) : workspace,
    source: new NodeFileSource(),
    config: { ...DEFAULT_CONFIG, deniedPaths: [...DEFAULT_CONFIG.deniedPaths], ...options.config },
    readFile: readFileCapped,
    allowOutside: options.allowOutside ?? false,
    isCancelled: options.isCancelled ?? (() => false),
  };
}

export type { GrepContentMatch, GrepAnswer, GlobAnswer } from '../support/answers';

/** Runs grep and parses exactly the text the model would receive (within grepTools.maxOutputBytes, as the CLI). */
/** The text the model receives from grep (within grepTools.maxOutputBytes, as the CLI). */
export async function grepText(input: unknown, env: SearchEnvironment): Promise<string> {
  return renderGrep(await answerGrep(parseGrepInput(input), env), byteBudget(env.config.maxOutputBytes));
}

/** The answer exactly as the model receives it, parsed (no field filled in). */
export async function grepRaw(input: unknown, env: SearchEnvironment): Promise<Record<string, unknown>> {
  return parseAnswer(await renderGrep(await answerGrep(parseGrepInput(input), env), byteBudget(env.config.maxOutputBytes))) as Record<string, unknown>;
}

export async function globRaw(input: unknown, env: SearchEnvironment): Promise<Record<string, unknown>> {
  return parseAnswer(await renderGlob(await answerGlob(parseGlobInput(input), env), byteBudget(env.config.maxOutputBytes))) as Record<string, unknown>;
}

export async function grepJson(input: unknown, env: SearchEnvironment): Promise<GrepAnswer> {
  return readAnswer<GrepAnswer>(await renderGrep(await answerGrep(parseGrepInput(input), env), byteBudget(env.config.maxOutputBytes)));
}

export async function globJson(input: unknown, env: SearchEnvironment): Promise<GlobAnswer> {
  return readAnswer<GlobAnswer>(await renderGlob(await answerGlob(parseGlobInput(input), env), byteBudget(env.config.maxOutputBytes)));
}

export function contentFiles(json: GrepAnswer): Array<{ file: string; matches: GrepContentMatch[] }> {
  return json.files as Array<{ file: string; matches: GrepContentMatch[] }>;
}

export function countFiles(json: GrepAnswer): Array<{ file: string; count: number }> {
  return json.files as Array<{ file: string; count: number }>;
}

export function pathFiles(json: GrepAnswer): string[] {
  return json.files as string[];
}

/** '/'-separated path of `absolute` relative to `root`. */
export function rel(root: string, absolute: string): string {
  return nodePath.relative(root, absolute).split(nodePath.sep).join('/');
}

/** Content-mode results flattened to "relative-path:line:text" strings, in output order. */
export function flatMatches(json: GrepAnswer, root: string): string[] {
  return contentFiles(json).flatMap((entry) => entry.matches.map((m) => `${rel(root, entry.file)}:${m.line}:${m.text}`));
}

/** Asserts that a promise rejects with an Error whose message matches every regex. */
export async function rejectsWith(promise: Promise<unknown>, ...patterns: RegExp[]): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof Error)) throw new Error(`expected a rejection with an Error, got ${caught === undefined ? 'success' : String(caught)}`);
  for (const pattern of patterns) {
    if (!pattern.test(caught.message)) throw new Error(`error message ${JSON.stringify(caught.message)} does not match ${pattern}`);
  }
  return caught;
}

/** The InputError `fn` throws (the test fails when it throws nothing, or something else). */
export function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an InputError to be thrown');
}
