/**
 * `--target` / `--exclude` on the email part of a run. Pure. A selector may be an email list's
 * address (its key under `email_lists:`); src/plan/select.ts knows those addresses as selecting no
 * project, so targeting only email lists plans no project, and targeting only projects leaves every
 * email list out.
 *
 * - No `--target`: every list, and every email campaign, minus the lists `--exclude` names.
 * - With `--target`: only the lists it names (minus excluded ones); email campaigns are left out
 *   (they are checks, not syncs: run without `--target` to check them).
 * - `leftOut` names what the run leaves out, so the caller says so once (never silently).
 */
import type { EmailSpecs } from "../campaign/email-model.js";

export interface EmailSelection {
  readonly specs: EmailSpecs;
  /** Addresses of the email lists and email campaigns left out by the selectors, in file order. */
  readonly leftOut: { readonly lists: readonly string[]; readonly campaigns: readonly string[] };
}

export function selectEmail(
  all: EmailSpecs,
  targets: readonly string[],
  excludes: readonly string[],
): EmailSelection {
  const targeted = new Set(targets);
  const excluded = new Set(excludes);
  const lists = all.lists.filter(
    (l) => (targets.length === 0 || targeted.has(l.address)) && !excluded.has(l.address),
  );
  const campaigns = targets.length === 0 ? all.campaigns : [];
  const keptLists = new Set(lists.map((l) => l.address));
  const keptCampaigns = new Set(campaigns.map((c) => c.address));
  return {
    specs: { lists, campaigns },
    leftOut: {
      lists: all.lists.filter((l) => !keptLists.has(l.address)).map((l) => l.address),
      campaigns: all.campaigns.filter((c) => !keptCampaigns.has(c.address)).map((c) => c.address),
    },
  };
}

/**
 * What `--target`/`--exclude` leave out of the email part of the run, said once (never silently):
 * the note to print, or undefined when nothing of the files' email is left out.
 */
export function emailLeftOutNote(
  all: EmailSpecs,
  targets: readonly string[],
  excludes: readonly string[],
): string | undefined {
  if (targets.length === 0 && excludes.length === 0) return undefined;
  const { leftOut } = selectEmail(all, targets, excludes);
  const parts = [
    ...(leftOut.lists.length === 0 ? [] : [`the email lists ${leftOut.lists.join(", ")}`]),
    ...(leftOut.campaigns.length === 0 ? [] : [`the email campaigns ${leftOut.campaigns.join(", ")}`]),
  ];
  if (parts.length === 0) return undefined;
  const how =
    targets.length === 0
      ? ""
      : " (name an email list's address with --target to sync it; run without --target to check the email campaigns)";
  return `note: --target/--exclude leave ${parts.join(" and ")} out of this run${how}\n`;
}
