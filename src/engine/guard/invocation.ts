/**
 * What a tool tells the person before it runs (`prepareInvocation`): the progress line, and for a path
 * outside every workspace folder the confirmation VS Code shows. Built from the guard's decision, with
 * stats and symlink resolution only: nothing is opened, listed or searched here.
 */
import { globRequest } from './globInput';
import { decide, type Decision, type GuardContext } from './guard';
import type { PathFlavour } from './paths';

export type ToolName = 'grep' | 'glob';

export interface PreparedMessages {
  /** The progress line ("Searching for `TODO` in src"), Markdown. */
  invocationMessage: string;
  /** Only for a pending (outside) path: title and Markdown message of the confirmation. */
  confirmation?: { title: string; message: string };
  /** The guard's decision, for logging. */
  decision: Decision['kind'];
  /** For a pending (outside) path: the real path the confirmation names, which invoke must still find. */
  resolved?: string;
}

const MAX_SHOWN = 200;

/** Text as a Markdown code span that nothing in it can break out of (backticks, newlines, length). */
export function codeSpan(text: string): string {
  let shown = text.replace(/\r?\n/g, '⏎');
  if (shown.length > MAX_SHOWN) shown = `${shown.slice(0, MAX_SHOWN)}…`;
  const longestRun = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The path a call searches (an absolute glob names its own base). Never throws: a bad input is invoke's to report. */
function requestedPath(tool: ToolName, input: unknown, flavour: PathFlavour | undefined): string | undefined {
  const path = field(input, 'path');
  if (tool === 'grep') return path;
  const pattern = field(input, 'pattern');
  if (pattern === undefined) return path;
  const mode = field(input, 'mode');
  try {
    return globRequest(pattern, path, mode === 'regex' ? 'regex' : 'glob', flavour).path;
  } catch {
    return path;
  }
}

/**
 * The messages for one call. `decide` stats the path and resolves symlinks (so the person sees where a
 * link really leads) but opens and lists nothing.
 */
export async function prepareMessages(tool: ToolName, input: unknown, ctx: GuardContext): Promise<PreparedMessages> {
  const pattern = field(input, 'pattern') ?? '';
  const path = requestedPath(tool, input, ctx.flavour);
  const include = tool === 'grep' ? field(input, 'include') : undefined;
  let decision: Decision;
  try {
    decision = await decide(path, ctx);
  } catch (error) {
    decision = { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
  const verb = tool === 'grep' ? `Searching for ${codeSpan(pattern)}` : `Finding files matching ${codeSpan(pattern)}`;
  const scope =
    path === undefined || path === '' || path === '.' ? (ctx.folders.length > 1 ? ' in the workspace folders' : ' in the workspace') : ` in ${codeSpan(path)}`;
  const filter = include ? ` (${codeSpan(include)})` : '';
  if (decision.kind !== 'pending') {
    return { invocationMessage: `${verb}${scope}${filter}`, decision: decision.kind };
  }
  const folders = ctx.folders.length ? ctx.folders.map((folder) => codeSpan(folder.path)).join(', ') : 'none is open';
  const requested =
    decision.requested === decision.resolved
      ? codeSpan(decision.resolved)
      : `${codeSpan(decision.requested)}, which resolves to ${codeSpan(decision.resolved)}`;
  const what =
    tool === 'grep'
      ? `**grep** will search the contents of the files in ${requested} for the pattern ${codeSpan(pattern)}${include ? ` (files matching ${codeSpan(include)})` : ''}.`
      : `**glob** will list the files in ${requested} whose paths match ${codeSpan(pattern)}.`;
  const sent = tool === 'grep' ? 'The matching lines, with their file paths,' : 'The matching file paths';
  return {
    invocationMessage: `${verb} in ${codeSpan(decision.resolved)} (outside the workspace)${filter}`,
    confirmation: {
      title: tool === 'grep' ? 'Search outside the workspace?' : 'List files outside the workspace?',
      message:
        `${what}\n\n` +
        `This location is **outside every workspace folder** (workspace: ${folders}). ` +
        `${sent} will be sent to the language model. Denied paths (secrets, keys, .git) stay denied.`,
    },
    decision: decision.kind,
    resolved: decision.resolved,
  };
}
