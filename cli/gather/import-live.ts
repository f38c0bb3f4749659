/**
 * The reads of an import (`import` and `import --template` alike): the session's keys routed first
 * (each listed project then read with its own organization's key: src/api/routing/import-routes.ts),
 * then the selected projects and their catalogs, on the API's clock (`session.now()`, set by the
 * first responses: design.md, "One clock, the API's").
 */
import { importRouting } from "../../src/api/routing/import-routes.js";
import { listingGaps } from "../../src/api/routing/listing-gaps.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type LiveForImport, readLiveForImport, type Selection } from "../../src/import/read-live.js";
import type { Session } from "./session.js";

/** What an import read, with what it missed; or the problems that stopped it before or during the reads. */
export type ImportReads =
  | {
      readonly ok: true;
      readonly live: Extract<LiveForImport, { ok: true }>;
      /**
       * The keys whose organization the reads missed (src/api/routing/listing-gaps.ts: one error
       * each, standing for routing's warning about the key), to report with the import's own.
       */
      readonly routing: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Routes the session's keys, then reads `selection` through them. */
export async function readForImport(session: Session, selection: Selection): Promise<ImportReads> {
  const routing = await importRouting(session.router);
  if (!routing.ok) return routing;
  const live = await readLiveForImport(session.client, selection, () => session.now(), routing.beforeReads);
  // Routing's warnings (a key that could not be used) go with the reads' outcome, failed or not.
  if (!live.ok) return { ok: false, diagnostics: [...routing.diagnostics, ...live.diagnostics] };
  // Without ids, an import is a listing: a key it missed fails it (the rest is written). Ids not
  // found are errors of their own; the keys' warnings then stand.
  const missed =
    selection.ids.length > 0
      ? routing.diagnostics
      : await listingGaps(
          session.router,
          selection.organization === undefined ? {} : { organization: selection.organization },
        );
  return { ok: true, live, routing: missed };
}
