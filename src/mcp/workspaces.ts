/**
 * The folders the MCP server searches and their resident index. The folders are the client's roots
 * when it lists some (file: URIs), else the --workspace folders. The index of a set of folders is kept
 * in memory by the `serve` machinery (run/residentWorkspace.ts): its first call starts the build (that
 * call is answered from the tree, as the command line answers it), later calls use the index, which a
 * watcher keeps current. When the roots change, the index of the old folders is closed.
 */
import { fileURLToPath } from 'url';
import * as nodePath from 'path';
import { sameList } from '../engine/index/listing';
import { checkIndexDir, defaultIndexDir } from '../engine/index/location';
import type { SearchEnvironment } from '../engine/run/environment';
import { ResidentWorkspace } from '../engine/run/residentWorkspace';
import type { NodeFileSource } from '../engine/source/walker';
import type { CliRequest } from '../cli/arguments';
import { cliEnvironment } from '../cli/local';
import { residentLog } from '../cli/server';

/** What the model is told when a path outside the folders is refused. */
export const MCP_OUTSIDE_HINT =
  "This MCP server searches only its workspace folders (the client's roots, else its --workspace folders), and MCP gives it no way to ask the user to confirm another location. " +
  'Search inside a workspace folder, or ask the user to add that folder as a root or a --workspace.';

/** The folders of file: roots, absolute; the others (another scheme) are named in `skipped`. */
export function rootFolders(uris: readonly string[]): { folders: string[]; skipped: string[] } {
  const folders: string[] = [];
  const skipped: string[] = [];
  for (const uri of uris) {
    try {
      if (!uri.startsWith('file:')) throw new Error('not a file: URI');
      const path = nodePath.resolve(fileURLToPath(uri));
      if (!folders.includes(path)) folders.push(path);
    } catch {
      skipped.push(uri);
    }
  }
  return { folders, skipped };
}

/** One set of folders: its environment and its resident index (undefined when the index directory cannot be used). */
export class Workspace {
  readonly base: SearchEnvironment & { source: NodeFileSource };
  private readonly resident?: ResidentWorkspace;
  private started = false;

  constructor(
    readonly folders: readonly string[],
    readonly indexDir: string,
    request: CliRequest,
    private readonly log: (line: string) => void,
  ) {
    this.base = { ...cliEnvironment({ ...request, folders: [...folders], allowOutside: false }, log), outsideHint: MCP_OUTSIDE_HINT };
    try {
      checkIndexDir(indexDir, folders);
      this.resident = new ResidentWorkspace(this.base, indexDir, request.limits, residentLog(log));
    } catch (error) {
      log(`index: none for ${folders.join(', ')}: ${(error as Error).message}`);
    }
  }

  /** What a grep call searches through: the resident index once built (the first call starts the build). */
  indexed(): Partial<Pick<SearchEnvironment, 'source' | 'index'>> {
    if (!this.resident) return {};
    if (!this.started) {
      this.started = true;
      this.resident.start().catch((error: Error) => this.log(`index: build failed (${error.message}); calls read every file`));
    }
    return this.resident.environment();
  }

  close(): void {
    this.resident?.close();
  }
}

export class Workspaces {
  private roots: Promise<string[] | undefined> = Promise.resolve(undefined);
  private active?: Workspace;
  private closed = false;

  constructor(
    private readonly request: CliRequest,
    private readonly log: (line: string) => void,
  ) {}

  /** The client's roots (undefined: it has none, or did not say): they replace the --workspace folders from the next call on. */
  useRoots(roots: Promise<string[] | undefined>): void {
    this.roots = roots;
  }

  /** The workspace a call searches: of the roots, else of the --workspace folders. */
  async current(): Promise<Workspace> {
    const folders = (await this.roots) ?? this.request.folders;
    if (this.active && sameList(this.active.folders, folders)) return this.active;
    this.active?.close();
    const indexDir = this.request.indexDirGiven ? this.request.indexDir : defaultIndexDir(folders);
    this.active = new Workspace(folders, indexDir, this.request, this.log);
    if (this.closed) this.active.close();
    else this.log(`workspace: ${folders.join(', ')} (index in ${indexDir})`);
    return this.active;
  }

  close(): void {
    this.closed = true;
    this.active?.close();
  }
}
