/**
 * The server's answers to completion and hover on an open campaign document (server.ts hands each
 * request here): the snapshot's organization of the file, its `fields` and `merge_defaults`, the
 * addresses around it, and the answer itself (completion.ts, hover.ts). A document the last check
 * cut into its entries is read entry by entry, not parsed whole (kept-document.ts): on a
 * 10,000-project file a hover answers in milliseconds instead of a second. Offline; reads only the
 * snapshot file and, for `after:` completion, the workspace's campaign files.
 */
import type { CompletionItem, Hover, Position } from "vscode-languageserver";
import { MarkupKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { maskKeyShaped } from "../../src/contract/key-shaped.js";
import { organizationIn } from "../../src/plan/snapshot.js";
import { addressesAround, type CheckMemory, isCampaignDocument, type Workspace } from "./check-document.js";
import { type CompletionSources, completionsAt } from "./completion.js";
import { factsOf, hoverInDocument, keptCut } from "./kept-document.js";
import { lspRange } from "./lsp-diagnostic.js";
import { mergeFieldsOf, namesOf } from "./snapshot-names.js";
import type { SnapshotLookup } from "./snapshot-source.js";

/** What the answers read from the session: its check memory, the snapshot and the workspace. */
export interface AnswerContext {
  readonly memory: CheckMemory;
  /** The document's snapshot (snapshot-source.ts), searched no higher than its workspace folder. */
  readonly snapshotFor: (path: string) => SnapshotLookup;
  /** The document's workspace (open buffers, the file cache), or undefined outside a folder. */
  readonly workspaceOf: (path: string) => Workspace | undefined;
  readonly schema: () => Record<string, unknown>;
  /** Called when a name's completion found no snapshot (the server says so once a session). */
  readonly noSnapshot: (path: string) => void;
}

/** The completion items at `position` of the campaign document at `path`. */
export function completionsOf(
  context: AnswerContext,
  document: TextDocument,
  path: string,
  position: Position,
): CompletionItem[] {
  const text = document.getText();
  if (!isCampaignDocument(path, text)) return [];
  const addresses = addressesAround(path, text, context.workspaceOf(path), context.memory);
  const facts = factsOf(text, keptCut(context.memory, path, text));
  const found = context.snapshotFor(path);
  const org = found.kind === "found" ? organizationIn(found.snapshot, facts.organization) : undefined;
  const sources: CompletionSources = {
    schema: context.schema(),
    addresses,
    mergeFields: mergeFieldsOf(facts, org),
    names: (key) => {
      if (found.kind === "missing") {
        context.noSnapshot(path);
        return [];
      }
      return org === undefined ? [] : namesOf(org, key);
    },
  };
  // Only the lines up to the cursor's are read (the place is read upwards from it).
  const upTo = document.getText({
    start: { line: 0, character: 0 },
    end: { line: position.line + 1, character: 0 },
  });
  return completionsAt(upTo, position.line, position.character, sources);
}

/** The hover at `position` of the campaign document at `path`, or null where there is nothing to say. */
export function hoverOf(
  context: AnswerContext,
  document: TextDocument,
  path: string,
  position: Position,
): Hover | null {
  const text = document.getText();
  if (!isCampaignDocument(path, text)) return null;
  const cut = keptCut(context.memory, path, text);
  const found = context.snapshotFor(path);
  const named = factsOf(text, cut).organization;
  const organization = found.kind === "found" ? organizationIn(found.snapshot, named) : undefined;
  const missing =
    found.kind === "missing"
      ? "no offline snapshot; run `campaignctl plan` on these files once to write it"
      : organization === undefined
        ? `the offline snapshot has no organization ${named === undefined ? "for this file" : `\`${named}\``}`
        : undefined;
  const { hover } = hoverInDocument(
    path,
    text,
    document.offsetAt(position),
    {
      ...(organization === undefined ? {} : { organization }),
      ...(missing === undefined ? {} : { missing }),
    },
    cut,
  );
  if (hover === undefined) return null;
  // An API key written in the file is shown as `*`, as validate's excerpt shows it.
  const value = maskKeyShaped(hover.markdown);
  return { contents: { kind: MarkupKind.Markdown, value }, range: lspRange(hover.range) };
}
