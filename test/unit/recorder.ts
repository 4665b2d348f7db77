/**
 * Records every file opened and every directory listed in this process while a search runs: the
 * SearchEnvironment's readFile hook, and underneath it Node's `fs` (promises, callback and sync
 * forms of open, readFile, createReadStream, readdir and opendir), so a read that bypassed the hook is
 * caught too. Loading modules (node_modules, out/) is not the search's doing and is left out.
 */
import * as nodePath from 'path';
import type { SearchEnvironment } from '../../src/engine/run/environment';

export interface Access {
  op: 'open' | 'list';
  path: string;
  via: string;
}

type AnyFunction = (...args: unknown[]) => unknown;

// The module object itself (an ES import is a frozen namespace copy): patching it reaches every caller.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('fs') as typeof import('fs');

const OPEN = ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream'] as const;
const LIST = ['readdir', 'readdirSync', 'opendir', 'opendirSync'] as const;
const PROMISE_OPEN = ['open', 'readFile'] as const;
const PROMISE_LIST = ['readdir', 'opendir'] as const;

const repo = nodePath.resolve(__dirname, '..', '..', '..');
const moduleDirs = [nodePath.join(repo, 'node_modules'), nodePath.join(repo, 'out'), nodePath.join(repo, 'dist')];

const readlink = fs.readlinkSync;

/**
 * The path an access names. `/proc/<pid>/fd/N` (a directory listed through the descriptor it was opened
 * with, see directory.ts) is recorded as what that descriptor really is, read at the time of the call.
 */
function asPath(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : value instanceof URL ? value.pathname : undefined;
  if (text === undefined) return undefined; // a file descriptor: its open was recorded
  if (/^\/proc\/(self|\d+)\/fd\/\d+$/.test(text)) {
    try {
      return readlink(text);
    } catch {
      return text;
    }
  }
  return nodePath.resolve(text);
}

/** An open with O_DIRECTORY opens a directory to list it: recorded as a listing. */
function isDirectoryOpen(name: string, args: unknown[]): boolean {
  return (name === 'open' || name === 'openSync') && typeof args[1] === 'number' && (args[1] & fs.constants.O_DIRECTORY) !== 0;
}

export class FsRecorder {
  readonly accesses: Access[] = [];
  private restore: Array<() => void> = [];

  private patch(target: object, name: string, op: Access['op'], via: string): void {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (!descriptor) return;
    const original = (descriptor.get ? descriptor.get.call(target) : descriptor.value) as AnyFunction;
    const accesses = this.accesses;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const path = asPath(args[0]);
      if (path !== undefined && !moduleDirs.some((dir) => path.startsWith(dir + nodePath.sep)))
        accesses.push({ op: isDirectoryOpen(name, args) ? 'list' : op, path, via });
      return original.apply(this, args);
    };
    Object.defineProperty(target, name, { configurable: true, enumerable: descriptor.enumerable, writable: true, value: wrapped });
    this.restore.push(() => Object.defineProperty(target, name, descriptor));
  }

  start(): void {
    for (const name of OPEN) this.patch(fs, name, 'open', `fs.${name}`);
    for (const name of LIST) this.patch(fs, name, 'list', `fs.${name}`);
    for (const name of PROMISE_OPEN) this.patch(fs.promises, name, 'open', `fs.promises.${name}`);
    for (const name of PROMISE_LIST) this.patch(fs.promises, name, 'list', `fs.promises.${name}`);
  }

  stop(): void {
    for (const undo of this.restore.reverse()) undo();
    this.restore = [];
  }

  /** Adds the environment's own readFile hook to the record (the engine's way to read a file). */
  instrument(env: SearchEnvironment): SearchEnvironment {
    const accesses = this.accesses;
    return {
      ...env,
      readFile: (path, maxSize, scope) => {
        accesses.push({ op: 'open', path: nodePath.resolve(path), via: 'env.readFile' });
        return env.readFile(path, maxSize, scope);
      },
    };
  }

  opened(): string[] {
    return [...new Set(this.accesses.filter((a) => a.op === 'open').map((a) => a.path))].sort();
  }

  listed(): string[] {
    return [...new Set(this.accesses.filter((a) => a.op === 'list').map((a) => a.path))].sort();
  }

  /** Runs `work` with every open and listing recorded. */
  async record<T>(work: () => Promise<T>): Promise<T> {
    this.start();
    try {
      return await work();
    } finally {
      this.stop();
    }
  }
}
