/** One email list's CSV, checked to its end as a stream (nothing is kept per row but the duplicate index). */

import type { ListCheck } from "../../src/email/list-results.js";
import { ListTally } from "../../src/email/list-tally.js";
import type { EmailListSpec } from "../../src/email/model.js";
import type { ListRead } from "../../src/plan/email-items.js";
import { csvStamp, handleSha256, sameStamp } from "./csv-identity.js";
import { csvVerdicts, openCsv, openedCsvVerdicts } from "./csv-rows.js";

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

/**
 * One list's CSV for the plan: checked to its end and its sha256 taken from one open file, so the
 * digest the plan records (and apply checks) is that of the rows it counts. A file written in place
 * while it was read is unreadable for this plan (`email.csv-unreadable`: plan again).
 */
export async function checkListRead(
  list: EmailListSpec,
  cwd: string,
  requireConsent: boolean,
): Promise<ListRead> {
  const tally = new ListTally(list);
  const opened = await openCsv(list, cwd);
  if (!opened.ok) {
    tally.fail([opened.diagnostic]);
    return { check: tally.result(), sha256: null };
  }
  try {
    const stamp = csvStamp(opened.handle);
    const sha256 = await handleSha256(opened.handle);
    for await (const verdict of openedCsvVerdicts(opened, list, requireConsent, (d) => tally.fail(d)))
      tally.add(verdict);
    if (tally.result().readable && (sha256 === null || !sameStamp(opened.handle, stamp)))
      tally.fail([
        {
          severity: "error",
          code: "email.csv-unreadable",
          message: `${list.csvPath} (email list ${list.address}) changed while it was read (a file still being written?): its rows and its digest would not agree`,
          range: list.csvRange,
          hint: "plan again once the file is written",
        },
      ]);
    const check = tally.result();
    return { check, sha256: check.readable ? sha256 : null };
  } finally {
    await opened.handle.close();
  }
}
