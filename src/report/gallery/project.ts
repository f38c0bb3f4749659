/**
 * One project of the gallery as an `<article>`: its facts, the send (schedule in the recipients'
 * zone and UTC, the lists by name, estimated cost, the guard `watch` pauses it at, the plan's
 * status), notes, the files' diagnostics about it, then one phone mock-up per case. Pure.
 */
import type { NamedRecord, ProjectPlan } from "../../plan/types.js";
import { describeGuard } from "../guard-describe.js";
import { escapeHtml } from "../html-escape.js";
import { describePlaces } from "../places-words.js";
import { describeEstimate } from "../plan-describe.js";
import { describePlanSchedule, describeSendWithSchedule } from "../send-describe.js";
import { mediaKindLabel } from "./labels.js";
import type { GalleryPlanStatus, GalleryProject } from "./model.js";
import { flagsUnbroken } from "./overview-html.js";
import { phoneHtml } from "./phone.js";
import { codeHtml, problemsHtml } from "./problems.js";
import { actionStatusWords, actionWords, desiredWords, statusWords, zonedTimes } from "./words.js";

function fact(term: string, value: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
}

function scheduleHtml(p: GalleryProject): string {
  const s = p.schedule;
  if (s === null) return "not scheduled in the file";
  const bypass = s.dailyCapBypass ? "; bypasses the brand's daily cap" : "";
  if (s.local === null)
    return `as soon as it is scheduled (<code>at: now</code>), ${escapeHtml(s.timezone)}${bypass}`;
  const utc = s.utc === null ? "" : `; ${escapeHtml(s.utc)}`;
  return `<time datetime="${escapeHtml(s.at)}">${escapeHtml(s.local)}</time> (${escapeHtml(s.timezone)}, the recipients' zone)${utc}${bypass}`;
}

/** A list of records by name, each id beside it (the key cannot see a record without a name). */
function recordsHtml(records: readonly NamedRecord[]): string {
  if (records.length === 0) return "none";
  return records
    .map((r) =>
      r.name === null
        ? `<code>${escapeHtml(r.id)}</code> (name not visible to the key)`
        : `${escapeHtml(r.name)} <span class="id">(<code>${escapeHtml(r.id)}</code>)</span>`,
    )
    .join(", ");
}

/** The audience facts: the plan's (by name, with ids), else the lists as the file writes them. */
function audienceFacts(p: GalleryProject): string[] {
  const audience = p.plan.kind === "planned" ? p.plan.plan.audience : null;
  if (audience !== null)
    return [
      fact("Contact lists", recordsHtml(audience.contact_lists)),
      fact("Suppression lists", recordsHtml(audience.suppression_lists)),
      fact("Organization", recordsHtml([audience.organization])),
      ...(audience.places === undefined
        ? []
        : [fact("Recipients in", escapeHtml(describePlaces(audience.places, audience.contact_lists)))]),
    ];
  const written = (refs: readonly string[] | null): string =>
    refs === null
      ? "none in the file"
      : `${refs.map(escapeHtml).join(", ") || "none"} <span class="unknown">(as written in the file)</span>`;
  return [
    fact("Contact lists", written(p.fileLists.contact)),
    fact("Suppression lists", written(p.fileLists.suppression)),
  ];
}

/** Whether the plan sends to the lists: `yes` (at the schedule above), at the live time, or why not. */
function sendsFact(status: GalleryPlanStatus): string[] {
  if (status.kind !== "planned") return [];
  const p = status.plan;
  const live = p.schedule?.source === "live" ? p.schedule : null;
  const text = !p.sends
    ? describeSendWithSchedule(p)
    : live !== null
      ? `yes, at ${describePlanSchedule(live)} (the live project's schedule)`
      : p.schedule === null
        ? "yes, once scheduled"
        : "yes, at the schedule above";
  return [fact("Sends to its lists", escapeHtml(text))];
}

/** The guard `watch` pauses the send at; for a project the file schedules without one, that it has none. */
function guardFact(p: GalleryProject): string[] {
  if (p.guard !== null) return [fact("Guard", escapeHtml(describeGuard(p.guard)))];
  if (p.desired !== "scheduled") return [];
  return [fact("Guard", `<span class="unknown">none: campaignctl watch does not pause this send</span>`)];
}

function costHtml(status: GalleryPlanStatus): string {
  switch (status.kind) {
    case "planned": {
      const e = status.plan.estimate;
      if (e === null) return "not known: the plan has no estimate for this project";
      return escapeHtml(describeEstimate(e));
    }
    case "not-covered":
      return "not known: the plan does not cover this project";
    case "not-planned":
      return "not known until planned (the API estimates it from the recipients)";
  }
}

function actionsHtml(plan: ProjectPlan): string {
  if (plan.actions.length === 0) return `<p><span class="status-none">nothing to do</span></p>`;
  // Every time of a sentence in the recipients' zone, with UTC beside it.
  const zone = plan.schedule?.timezone ?? null;
  const words = (text: string) => escapeHtml(zonedTimes(text, zone));
  const items = plan.actions.map((a) => {
    const fix = a.block !== undefined ? ` Blocked: ${words(a.block.reason)}. Fix: ${words(a.block.fix)}` : "";
    const waits = a.waits_for !== undefined ? ` Waits for ${words(a.waits_for)}.` : "";
    return `<li><span class="status-${a.status}">${escapeHtml(actionWords(a.kind))}: ${escapeHtml(actionStatusWords(a.status))}</span> (from ${escapeHtml(statusWords(a.before))}, to ${escapeHtml(statusWords(a.after))}): ${words(a.reason)}.${fix}${waits}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

/** `live now draft: not tested yet; the file asks for scheduled (...)`. */
function transitionWords(p: ProjectPlan): string {
  const live = p.live === null ? "live status not known" : `live now ${statusWords(p.live.status)}`;
  return `${live}; the file asks for ${desiredWords(p.desired)}`;
}

function planHtml(status: GalleryPlanStatus): string {
  switch (status.kind) {
    case "not-planned":
      return `<p data-testid="plan-status"><span class="status-none">${flagsUnbroken(escapeHtml(status.reason))}</span></p>`;
    case "not-covered":
      return `<p data-testid="plan-status"><span class="status-none">not in the plan (not selected, or its file was not planned)</span></p>`;
    case "planned": {
      const p = status.plan;
      const lines = [
        `<p data-testid="plan-status">Plan against <code>${escapeHtml(status.baseUrl)}</code> at ${escapeHtml(zonedTimes(status.createdAt, null))}: ${escapeHtml(transitionWords(p))}.</p>`,
        actionsHtml(p),
      ];
      if (p.drift.length > 0)
        lines.push(
          `<p><span class="status-blocked">drift</span>: ${p.drift.map((d) => `${escapeHtml(d.field)} (live ${escapeHtml(d.before_text)}, file ${escapeHtml(d.after_text)})`).join("; ")}</p>`,
        );
      const errors = p.diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0)
        lines.push(
          `<ul>${errors.map((d) => `<li><span class="status-blocked">${codeHtml(d.code)}</span>: ${escapeHtml(d.message)}</li>`).join("")}</ul>`,
        );
      return lines.join("\n");
    }
  }
}

/**
 * The project's reply rules (`replies:`, docs/replies.md) in the order they are tried: what each
 * matches, its answer as sent (no merge tags), its encoding and SMS segments (each billed).
 */
function repliesHtml(p: GalleryProject): string {
  if (p.replies.length === 0) return "";
  const rows = p.replies.map((r) => {
    const nonGsm =
      r.sms.non_gsm_characters.length === 0
        ? ""
        : ` <span class="status-blocked">(not GSM: ${r.sms.non_gsm_characters.map(escapeHtml).join(" ")})</span>`;
    const segments = `${r.sms.segments} segment${r.sms.segments === 1 ? "" : "s"}`;
    return `<tr><th scope="row"><code>${escapeHtml(r.rule)}</code></th><td data-label="Matches">${escapeHtml(r.matches)}</td><td data-label="Answer">${escapeHtml(r.answer)}</td><td data-label="SMS">${escapeHtml(r.sms.encoding)}, ${r.characters} characters, <strong>${segments}</strong>${nonGsm}</td></tr>`;
  });
  return [
    `<section class="replies" aria-labelledby="${p.id}-replies" data-testid="reply-rules">`,
    `<h3 id="${p.id}-replies">Reply rules</h3>`,
    `<p>Answers <code>campaignctl replies run</code> sends, at most once per inbound; the first rule that matches answers. Opt-outs are never answered.</p>`,
    `<div class="table-wrap"><table class="replies"><thead><tr><th scope="col">Rule</th><th scope="col">Matches</th><th scope="col">Answer</th><th scope="col">SMS</th></tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table></div>`,
    `</section>`,
  ].join("\n");
}

export function projectHtml(p: GalleryProject): string {
  const titleId = `${p.id}-title`;
  const title = p.name === null ? p.address : `${p.name}`;
  const facts = [
    fact("Address", `<code>${escapeHtml(p.address)}</code>`),
    fact("File", `<code>${escapeHtml(p.file)}</code>`),
    ...(p.instance === undefined
      ? []
      : [
          fact(
            "Template",
            `<code>${escapeHtml(p.instance.template)}</code>, ${escapeHtml(p.instance.organization ?? "its organization")}, language <code>${escapeHtml(p.instance.language)}</code>`,
          ),
        ]),
    fact(
      "Kind",
      escapeHtml(
        `${p.type}, ${p.protocol}${p.channel === null ? "" : `, ${p.channel}`}; the file asks for ${desiredWords(p.desired)}`,
      ),
    ),
    fact("From", escapeHtml(p.sender)),
    fact(
      "Opt-out footer",
      p.optOutFooter === null
        ? "off"
        : `on: <span class="footer-text">${escapeHtml(p.optOutFooter)}</span> on a new line`,
    ),
  ];
  if (p.media.length > 0)
    facts.push(
      fact("Media", p.media.map((m) => `${mediaKindLabel(m.kind)}: ${escapeHtml(m.name)}`).join(", ")),
    );
  const notes =
    p.notes.length === 0
      ? ""
      : `<ul class="notes">${p.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>`;
  return [
    `<article class="project" id="${p.id}" aria-labelledby="${titleId}">`,
    `<header><h2 id="${titleId}">${escapeHtml(title)}</h2><p>${escapeHtml(p.address)} · ${escapeHtml(p.file)}</p></header>`,
    `<dl class="facts">${facts.join("")}</dl>`,
    `<section class="send" aria-labelledby="${p.id}-send">`,
    `<h3 id="${p.id}-send">Send</h3>`,
    `<dl class="facts">${[
      fact("Schedule", scheduleHtml(p)),
      ...sendsFact(p.plan),
      ...audienceFacts(p),
      fact("Estimated cost", costHtml(p.plan)),
      ...guardFact(p),
    ].join("")}</dl>`,
    planHtml(p.plan),
    `</section>`,
    notes,
    problemsHtml(p.problems, `${p.id}-problems`, 3, " in the file"),
    `<div class="cases">`,
    ...p.cases.map((c) => phoneHtml(p, c)),
    `</div>`,
    repliesHtml(p),
    `</article>`,
  ].join("\n");
}
