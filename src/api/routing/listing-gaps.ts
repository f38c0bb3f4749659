/**
 * What a listing of everything the keys see missed (`status --all` / `--organization`, `import`):
 * each key whose organization it did not read, because the key could not be used (its
 * `GET /organizations` failed: routing's warning) or one of its bulk reads failed, its retries
 * spent, while the other keys' succeeded (bulk.ts). The listing shows what the others see, and says
 * so: one error per such key, which stands for routing's warning about it (same key, same answer),
 * since the listing, not only the key, is then wrong. Invariant: at most one diagnostic per key.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { apiErrorDiagnostic, keyFailureHint } from "../diagnostics.js";
import { describeError } from "./route-decision.js";
import type { OwnerRouter } from "./router.js";

/** One error per key the listing missed, naming the key's variable and what the API answered. */
export async function listingGaps(router: OwnerRouter): Promise<Diagnostic[]> {
  const gaps = [...(await router.identities.failures()), ...router.bulkFailures()];
  const seen = new Set<unknown>();
  const out: Diagnostic[] = [];
  for (const { client, error } of gaps) {
    if (seen.has(client)) continue;
    seen.add(client);
    const source = router.keys.sourceOf(client) ?? "a key";
    out.push({
      ...apiErrorDiagnostic(error),
      severity: "error",
      code: "api.listing-incomplete",
      message: `the key in ${source} could not be read (${error.route} answered ${describeError(error)}): what it sees is missing from this listing`,
      hint: keyFailureHint(error, "what the other keys see is listed"),
    });
  }
  return out;
}
