/**
 * Untitled editors: documents a person opened and never saved. The VS Code layer passes each open one
 * as plain data (`Permission.untitled`, run/environment.ts); grep searches one only when its `path` names it:
 *
 * - by its URI as VS Code writes it (`untitled:Untitled-1`, `untitled:/ws/new.ts`), which is also how
 *   an answer names it, so a model can pass it back;
 * - by its name (`Untitled-1`) when it has no file path and nothing by that name exists in the workspace;
 * - by the path it will be saved to (`/ws/new.ts`, or `new.ts` relative to a workspace folder) when
 *   nothing exists there on disk.
 *
 * Lookups only; the guard (guard.ts) decides whether a document named so may be searched. No `vscode` import.
 */
import { HOST_FLAVOUR, samePath, type PathFlavour } from './paths';

export interface UntitledDocument {
  /** The URI as VS Code writes it (`Uri.toString()`): how an answer names the document. */
  uri: string;
  /** Its name: `Untitled-1`, or for a document with a file path, that path's file name. */
  name: string;
  /** The absolute path it will be saved to, when it has one (`untitled:/ws/new.ts` → `/ws/new.ts`). */
  associatedPath?: string;
  /** Its text in the editor, read only when it is searched. */
  text(): string;
}

/** Whether `path` is written as an untitled editor's URI (the scheme in any case, as URIs allow). */
export function isUntitledUri(path: string): boolean {
  return /^untitled:/i.test(path);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The document whose URI `path` is, as VS Code encodes it or decoded (`untitled:/ws/my file.ts`). */
export function untitledByUri(path: string, documents: readonly UntitledDocument[]): UntitledDocument | undefined {
  if (!isUntitledUri(path)) return undefined;
  const uri = `untitled:${path.slice('untitled:'.length)}`;
  return documents.find((document) => document.uri === uri) ?? documents.find((document) => decoded(document.uri) === decoded(uri));
}

/** The document without a file path whose name `path` is (`Untitled-1`). */
export function untitledByName(path: string, documents: readonly UntitledDocument[]): UntitledDocument | undefined {
  return documents.find((document) => document.associatedPath === undefined && document.name === path);
}

/** The document that will be saved to `absolute` (under `flavour`'s rules: on Windows, whatever the case of its letters). */
export function untitledAt(absolute: string, documents: readonly UntitledDocument[], flavour: PathFlavour = HOST_FLAVOUR): UntitledDocument | undefined {
  const wanted = flavour.resolve(absolute);
  return documents.find((document) => document.associatedPath !== undefined && samePath(flavour.resolve(document.associatedPath), wanted, flavour));
}

/** The error for an `untitled:` path that names no open document: which ones are open, and what to do. */
export function untitledNotFoundMessage(path: string, documents: readonly UntitledDocument[]): string {
  const open = documents.length > 0 ? `the open ones are ${documents.map((document) => JSON.stringify(document.uri)).join(', ')}` : 'none is open';
  return (
    `No untitled (unsaved) editor ${JSON.stringify(path)} is open; ${open}. ` +
    'An untitled editor can be searched only while it is open; once saved, search its file path instead.'
  );
}
