/**
 * One project of the gallery as an `<article>`: its facts, the send (schedule in the recipients'
 * zone, estimated cost, the plan's status), notes, the files' problems about it, then one phone
 * mock-up per case. Pure.
 */
import type { ProjectPlan } from "../../plan/types.js";
import { escapeHtml } from "../html-escape.js";
import { describeEstimate, describeTransition } from "../plan-describe.js";
import { mediaKindLabel } from "./labels.js";
import type { GalleryPlanStatus, GalleryProject } from "./model.js";
import { phoneHtml } from "./phone.js";
import { problemsHtml } from "./problems.js";

function fact(term: string, value: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
}

function scheduleHtml(p: GalleryProject): string {
  const s = p.schedule;
  if (s === null) return "not scheduled in the file";
  const bypass = s.dailyCapBypass ? "; bypasses the brand's daily cap" : "";
  if (s.local === null)
    return `as soon as it is scheduled (<code>at: now</code>), ${escapeHtml(s.timezone)}${bypass}`;
  return `<time datetime="${escapeHtml(s.at)}">${escapeHtml(s.local)}</time> (${escapeHtml(s.timezone)}, the recipients' zone)${bypass}`;
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
  const items = plan.actions.map((a) => {
    const fix =
      a.block !== undefined ? ` Blocked: ${escapeHtml(a.block.reason)}. Fix: ${escapeHtml(a.block.fix)}` : "";
    const waits = a.waits_for !== undefined ? ` Waits for ${escapeHtml(a.waits_for)}.` : "";
    return `<li><span class="status-${a.status}">${a.kind}: ${a.status}</span> (${escapeHtml(a.before)} → ${escapeHtml(a.after)}): ${escapeHtml(a.reason)}.${fix}${waits}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

/** Keeps each `--flag` of escaped text on one line. */
function flagsUnbroken(html: string): string {
  return html.replace(/--[a-z][a-z-]*/g, (flag) => `<span class="flag">${flag}</span>`);
}

function planHtml(status: GalleryPlanStatus): string {
  switch (status.kind) {
    case "not-planned":
      return `<p data-testid="plan-status"><span class="status-none">${flagsUnbroken(escapeHtml(status.reason))}</span></p>`;
    case "not-covered":
      return `<p data-testid="plan-status"><span class="status-none">not in the plan (not selected)</span></p>`;
    case "planned": {
      const p = status.plan;
      const lines = [
        `<p data-testid="plan-status">Plan against <code>${escapeHtml(status.baseUrl)}</code> at ${escapeHtml(status.createdAt)}: ${escapeHtml(describeTransition(p))}.</p>`,
        actionsHtml(p),
      ];
      if (p.drift.length > 0)
        lines.push(
          `<p><span class="status-blocked">drift</span>: ${p.drift.map((d) => `${escapeHtml(d.field)} (live ${escapeHtml(d.before_text)}, file ${escapeHtml(d.after_text)})`).join("; ")}</p>`,
        );
      const errors = p.diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0)
        lines.push(
          `<ul>${errors.map((d) => `<li><span class="status-blocked">${escapeHtml(d.code)}</span>: ${escapeHtml(d.message)}</li>`).join("")}</ul>`,
        );
      return lines.join("\n");
    }
  }
}

export function projectHtml(p: GalleryProject): string {
  const titleId = `${p.id}-title`;
  const title = p.name === null ? p.address : `${p.name}`;
  const facts = [
    fact("Address", `<code>${escapeHtml(p.address)}</code>`),
    fact("File", `<code>${escapeHtml(p.file)}</code>`),
    fact(
      "Kind",
      escapeHtml(
        `${p.type}, ${p.protocol}${p.channel === null ? "" : `, ${p.channel}`}, desired ${p.desired}`,
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
    `<dl class="facts">${fact("Schedule", scheduleHtml(p))}${fact("Estimated cost", costHtml(p.plan))}</dl>`,
    planHtml(p.plan),
    `</section>`,
    notes,
    problemsHtml(p.problems, `${p.id}-problems`, 3),
    `<div class="cases">`,
    ...p.cases.map((c) => phoneHtml(p, c)),
    `</div>`,
    `</article>`,
  ].join("\n");
}
