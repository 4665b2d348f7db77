/**
 * What a search is given, in four roles, and the options of one call. A function takes only the roles
 * it uses (e.g. `stopWatch` the cancellation alone, `openCandidates` the settings, the source and the
 * cancellation); the callers (the VS Code tools and commands, the CLI, the MCP server) build all four as
 * one `SearchEnvironment`.
 */
import type { EngineConfig } from '../api/config';
import type { GrepInput } from '../api/types';
import type { FileSource } from '../source/fileSource';
import { authorize, type Access, type GuardContext } from '../guard/guard';
import type { ReadScope } from '../guard/scope';
import type { WorkspaceFolder } from '../guard/roots';
import type { ReadOutcome } from '../searcher/reader';
import type { SearchPool } from '../pool/pool';
import type { UntitledDocument } from '../guard/untitled';
import type { SearchIndex } from '../index/prejudge';

/** Whether the caller still wants the answer. */
export interface Cancellation {
  isCancelled(): boolean;
  /**
   * Subscribes to the cancellation (as a VS Code CancellationToken's onCancellationRequested): a search
   * then stops at once instead of at its next check of isCancelled().
   */
  onCancelled?(listener: () => void): { dispose(): void };
}

/** What may be searched: the workspace folders, and the person's consent for a path outside them (guard.ts). */
export interface Permission {
  folders: readonly WorkspaceFolder[];
  /** A path outside every workspace folder may be searched (the person confirmed it). */
  allowOutside: boolean;
  /** With allowOutside: the real path the person confirmed; the call is refused if the path now leads elsewhere (guard.ts). */
  confirmedTarget?: string;
  /** How this caller gets the person's confirmation, told to the model when an outside path is refused. */
  outsideHint?: string;
  /**
   * Open untitled editors (never saved): searched, from their text, only when `path` names one
   * (untitled.ts); a search of the workspace or a directory never includes them.
   */
  untitled?: readonly UntitledDocument[];
}

/** Where the files come from and how they are read and searched. */
export interface Corpus {
  source: FileSource;
  readFile(path: string, maxSize: number, scope?: ReadScope): Promise<ReadOutcome>;
  /**
   * Content to search instead of reading the file, by absolute path: the text of open editors with
   * unsaved changes. Such a file is still listed and filtered as usual; only its read is replaced (its
   * content is then searched in the pool, like any file). It wins over the source's own reader.
   */
  overrides?: ReadonlyMap<string, string>;
  /** Workers that read and search files off this thread; without it, files are read with readFile here. */
  pool?: SearchPool;
  /**
   * A content index (index/prejudge.ts): files it knows to be unchanged and unable to match (or binary,
   * or too large) are counted as they would be without being read; the answer stays the same.
   */
  index?: SearchIndex;
}

/** The settings a search follows, and where it tells what it skipped. */
export interface Settings {
  config: EngineConfig;
  /** Writes a line to the log (VS Code's output channel, the CLI's stderr): what a search skipped and why. */
  warn?(message: string): void;
}

/** All four roles: what a caller builds, and what a whole grep or glob (and its checks) takes. */
export type SearchEnvironment = Cancellation & Permission & Corpus & Settings;

/** The options of one run, beside its input: set by the answer (answer/*.ts) for the search and for each of its checks. */
export interface RunOptions {
  /** When the run stops (ms since the epoch), its answer then partial. */
  deadline: number;
  /**
   * Candidates the run takes at most, in their stable order (undefined: all): an empty answer's check of
   * the files left out by .gitignore and the excludes stops there (diagnostics.ts), the same for the same tree.
   */
  maxListed?: number;
  /**
   * With include_ignored: only the files it adds, those the same search without it does not list (an
   * empty answer's check of the ignored files reads none it has searched already).
   */
  onlyIgnored?: true;
  /** false: the page's lines get no definitions and a cut page keeps path order (an answer's checks take only a first line). */
  definitions?: false;
  /**
   * Changes of the input an empty answer's notes ask about (ignoring case, the pattern as literal text):
   * while nothing matched, the files read are searched for them too, so an empty answer knows what they
   * find without reading its files again (GrepReport.fallbacks).
   */
  fallbacks?: Array<Partial<GrepInput>>;
}

/** The deadline of a call that starts now: grepTools.timeoutSeconds from now. */
export function deadlineFrom(config: Pick<EngineConfig, 'timeoutSeconds'>, now = Date.now()): number {
  return now + config.timeoutSeconds * 1000;
}

/** A `warn` that writes each distinct line once (an empty answer's checks search again, and meet the same ignore files). */
export function onceEach(write: (message: string) => void): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    if (!seen.has(message)) write(message);
    seen.add(message);
  };
}

/** What the guard asks of an environment: the permission, the settings, and the file source's stat. */
export type GuardRoles = Permission & Pick<Settings, 'config'> & { source: Pick<FileSource, 'kind'> };

/** What the guard needs to know of this environment: folders, policy, the file source's stat, untitled editors. */
export function guardContext(env: GuardRoles): GuardContext {
  return { folders: env.folders, config: env.config, kind: (absolute) => env.source.kind(absolute), untitled: env.untitled };
}

/**
 * The guard's decision for `path` in this environment (guard.ts, docs/tools.md "Permissions and limits"): the bases to search and where
 * symlinks may lead, or the untitled editor it names, or an InputError (denied by policy, outside the
 * workspace without confirmation, not found). Nothing is opened or listed before it says yes.
 */
export function authorizeSearch(path: string | undefined, env: GuardRoles): Promise<Access> {
  return authorize(path, { ...guardContext(env), allowOutside: env.allowOutside, outsideHint: env.outsideHint, confirmedTarget: env.confirmedTarget });
}
