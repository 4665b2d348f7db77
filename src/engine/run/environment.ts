/** The environment a search runs in (the file source, settings, reader, pool, index, open editors), and what the guard asks of it. */
import type { EngineConfig } from '../api/config';
import type { FileSource } from '../source/fileSource';
import { authorize, type Access, type GuardContext } from '../guard/guard';
import type { ReadScope } from '../guard/scope';
import type { SearchBase, WorkspaceFolder } from '../guard/roots';
import type { ReadOutcome } from '../searcher/reader';
import type { SearchPool } from '../pool/pool';
import type { UntitledDocument } from '../guard/untitled';
import type { SearchIndex } from '../index/prejudge';

export interface SearchEnvironment {
  folders: readonly WorkspaceFolder[];
  source: FileSource;
  config: EngineConfig;
  readFile(path: string, maxSize: number, scope?: ReadScope): Promise<ReadOutcome>;
  /** A path outside every workspace folder may be searched (the person confirmed it). */
  allowOutside: boolean;
  /** With allowOutside: the real path the person confirmed; the call is refused if the path now leads elsewhere (guard.ts). */
  confirmedTarget?: string;
  /** How this caller gets the person's confirmation, told to the model when an outside path is refused. */
  outsideHint?: string;
  isCancelled(): boolean;
  /**
   * Subscribes to the cancellation (as a VS Code CancellationToken's onCancellationRequested): a search
   * then stops at once instead of at its next check of isCancelled().
   */
  onCancelled?(listener: () => void): { dispose(): void };
  /** Workers that read and search files off this thread; without it, files are read with readFile here. */
  pool?: SearchPool;
  /**
   * Content to search instead of reading the file, by absolute path: the text of open editors with
   * unsaved changes. Such a file is still listed and filtered as usual; only its read is replaced (its
   * content is then searched in the pool, like any file). It wins over the source's own reader.
   */
  overrides?: ReadonlyMap<string, string>;
  /**
   * Open untitled editors (never saved): searched, from their text, only when `path` names one
   * (untitled.ts); a search of the workspace or a directory never includes them.
   */
  untitled?: readonly UntitledDocument[];
  /** Writes a line to the log (VS Code's output channel, the CLI's stderr): what a search skipped and why. */
  warn?(message: string): void;
  /**
   * A content index (index/prejudge.ts): files it knows to be unchanged and unable to match (or binary,
   * or too large) are counted as they would be without being read; the answer stays the same.
   */
  index?: SearchIndex;
  /**
   * Candidates a search takes at most, in their stable order (undefined: all): an empty answer's check of
   * the files left out by .gitignore and the excludes stops there (diagnostics.ts), the same for the same tree.
   */
  maxListed?: number;
}

/** A `warn` that writes each distinct line once (an empty answer's checks search again, and meet the same ignore files). */
export function onceEach(write: (message: string) => void): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (!seen.has(message)) write(message);
    seen.add(message);
  };
}

/** What the guard needs to know of this environment: folders, policy, the file source's stat, untitled editors. */
export function guardContext(env: SearchEnvironment): GuardContext {
  return { folders: env.folders, config: env.config, kind: (absolute) => env.source.kind(absolute), untitled: env.untitled };
}

/**
 * The guard's decision for `path` in this environment (guard.ts, docs/tools.md "Permissions and limits"): the bases to search and where
 * symlinks may lead, or the untitled editor it names, or an InputError (denied by policy, outside the
 * workspace without confirmation, not found). Nothing is opened or listed before it says yes.
 */
export function authorizeSearch(path: string | undefined, env: SearchEnvironment): Promise<Access> {
  return authorize(path, { ...guardContext(env), allowOutside: env.allowOutside, outsideHint: env.outsideHint, confirmedTarget: env.confirmedTarget });
}
