/**
 * What a listing of everything the keys see missed (`status --all` / `--organization`, `import`):
 * each key whose organization it did not read, because the key could not be used (its
 * `GET /organizations` failed: routing's warning) or one of its bulk reads failed, its retries
 * spent, while the other keys' succeeded (bulk.ts). The listing shows what the others see, and says
 * so: one diagnostic per such key, which stands for routing's warning about it (same key, same
 * answer). It is an error when the listing is of everything (`--all`), or of one organization and the
 * key is that organization's own (its variable): the listing, not only the key, is then wrong. Another
 * key's gap under `--organization` is a warning (a parent's key may list that organization anyway).
 * Invariant: at most one diagnostic per key.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { apiErrorDiagnostic, keyFailureHint } from "../diagnostics.js";
import { organizationKeyEnv } from "../organization-keys.js";
import { describeError } from "./route-decision.js";
import type { OwnerRouter } from "./router.js";

/** What a listing lists: everything the keys see, or one organization's projects (its name or id). */
export interface ListingScope {
  readonly organization?: string;
}

/** One diagnostic per key the listing missed, naming the key's variable and what the API answered. */
export async function listingGaps(router: OwnerRouter, scope: ListingScope): Promise<Diagnostic[]> {
  const own = scope.organization === undefined ? null : organizationKeyEnv(scope.organization);
  const gaps = [...(await router.identities.failures()), ...router.bulkFailures()];
  const seen = new Set<unknown>();
  const out: Diagnostic[] = [];
  for (const { client, error } of gaps) {
    if (seen.has(client)) continue;
    seen.add(client);
    const source = router.keys.sourceOf(client) ?? "a key";
    out.push({
      ...apiErrorDiagnostic(error),
      severity: scope.organization === undefined || source === own ? "error" : "warning",
      code: "api.listing-incomplete",
      message: `the key in ${source} could not be read (${error.route} answered ${describeError(error)}): what it sees is missing from this listing`,
      hint: keyFailureHint(error, "what the other keys see is listed"),
    });
  }
  return out;
}
