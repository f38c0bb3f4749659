/** One email list's CSV, checked to its end as a stream (nothing is kept per row but the duplicate index). */

import type { ListCheck } from "../../src/email/list-results.js";
import { ListTally } from "../../src/email/list-tally.js";
import type { EmailListSpec } from "../../src/email/model.js";
import { csvVerdicts } from "./csv-rows.js";

export async function checkList(
  list: EmailListSpec,
  cwd: string,
  requireConsent: boolean,
): Promise<ListCheck> {
  const tally = new ListTally(list);
  for await (const verdict of csvVerdicts(list, cwd, requireConsent, (d) => tally.fail(d)))
    tally.add(verdict);
  return tally.result();
}
