/**
 * The overview the gallery opens with: what sends when (in the recipients' zone and UTC), to which
 * lists and how many, for how much, with the plan's status, the totals and the policy in force.
 */
import { describe, expect, it } from "vitest";
import { buildGalleryModel } from "../../src/report/gallery/model.js";
import { renderGalleryHtml } from "../../src/report/gallery/page.js";
import { fullPlan } from "../report/fixtures.js";
import { loadProjects } from "./fixtures.js";

/** Projects of fullPlan()'s addresses (what the files say matters little: the plan's figures are shown). */
const PLANNED_YAML = `version: 1
organization: Riverside Democrats
projects:
${[
  ["gotv-reminder", "01", "scheduled"],
  ["weekend-canvass", "05", "scheduled"],
  ["early-vote-push", "04", "paused"],
  ["rally-invite", "07", "scheduled"],
  ["old-project", "ff", "scheduled"],
  ["primary-thanks", "09", "scheduled"],
]
  .map(
    ([address, id, state]) => `  ${address}:
    id: 9a000000-0000-4000-8000-0000000000${id}
    message: "Hi! Reply STOP to opt out"
    contact_lists: [Ward 3 Likely Voters]
    state: ${state}
    test:
      contacts: [{ phone: "+15035550160" }]
    schedule:
      at: "2036-12-08T09:30:00-08:00"
      timezone: America/Los_Angeles`,
  )
  .join("\n")}
`;

describe("the overview", () => {
  const projects = loadProjects({ "planned.yaml": PLANNED_YAML });
  const model = buildGalleryModel({ projects, plan: fullPlan(), planSource: "plan.json" });
  const html = renderGalleryHtml(model);

  it("lists the sends in send order (by instant, whatever the zone), then what does not send", () => {
    expect(model.overview.rows.map((r) => r.address)).toEqual([
      "weekend-canvass",
      "old-project",
      "gotv-reminder",
      "rally-invite",
      "early-vote-push",
      "primary-thanks",
    ]);
    expect(model.overview.rows[0]?.when).toEqual({
      kind: "time",
      time: {
        local: "Sat, Oct 31, 2026, 6:00 PM PDT",
        timezone: "America/Los_Angeles",
        utc: "2026-11-01 01:00 UTC",
        iso: "2026-11-01T01:00:00Z",
      },
    });
    expect(model.overview.rows.at(-2)?.when).toEqual({ kind: "text", text: "no: paused" });
  });

  it("gives each row the plan's lists by name, recipients, messages, cost and status", () => {
    const rally = model.overview.rows.find((r) => r.address === "rally-invite");
    expect(rally).toMatchObject({
      sends: true,
      organization: "Riverside Democrats",
      listsFrom: "plan",
      contactLists: ["Ward 3 Likely Voters", "Volunteer Prospects | *core* <team> @field-team"],
      suppressionLists: ["Do Not Text", "e1000000-0000-4000-8000-0000000000ee (name not visible to the key)"],
      recipients: 40,
      messages: "40 SMS segments",
      costCents: 120,
      status: { kind: "blocked", text: "schedule: blocked (cannot be done as the files stand)" },
    });
    expect(model.overview.rows.find((r) => r.address === "old-project")).toMatchObject({
      recipients: null,
      contactLists: ["Ward 3 Likely Voters"],
      listsFrom: "file",
      status: { kind: "blocked", text: "could not be read" },
    });
  });

  it("totals the shown projects' sends, overall and per organization", () => {
    expect(model.overview.totals).toEqual(fullPlan().totals);
    expect(html).toContain(
      `<th scope="row" colspan="5" data-label="">Total (4 projects sending) <span class="unknown">(1 not estimated: could not be read)</span></th><td class="number nowrap" data-label="Recipients">13,185</td><td class="number" data-label="Messages">27,130 SMS segments</td><td class="number nowrap" data-label="Estimated cost">$813.90</td>`,
    );
    expect(html).toContain(
      `<th scope="row" colspan="5" data-label="">Riverside Young Democrats (1 project sending)</th>`,
    );
  });

  it("names the plan, the saved plan it was read from and the policy in force, loosened rules in red", () => {
    expect(html).toContain(
      "<dt>Plan</dt><dd>made against <code>https://api.politicalcomms.com/v1</code> at 2026-11-20 14:00:00 UTC, read from the saved plan <code>plan.json</code></dd>",
    );
    expect(html).toContain(
      "<dt>Policy</dt><dd><code>campaignctl.policy.yaml</code>, <code>campaigns/campaignctl.policy.yaml</code></dd>",
    );
    expect(html).toMatch(/<dt>Rules<\/dt><dd>daily_cap_bypass forbid, min_test_contacts 2, /);
    expect(html).toContain(
      `<dt>Loosened</dt><dd><span class="status-blocked">max_estimated_cost_usd $500 -&gt; off, by --loosen-policy</span></dd>`,
    );
  });

  it("escapes list names, and greys the rows that do not send", () => {
    expect(html).toContain("<li>Volunteer Prospects | *core* &lt;team&gt; @field-team</li>");
    expect(html).not.toContain("<team>");
    expect(html.match(/<tr class="not-sending">/g)).toHaveLength(2);
  });

  it("opens the page, before the legend and the first project", () => {
    const overview = html.indexOf(`<section class="overview"`);
    expect(overview).toBeGreaterThan(html.indexOf("<main"));
    expect(overview).toBeLessThan(html.indexOf(`<ul class="legend"`));
    expect(overview).toBeLessThan(html.indexOf("<article"));
  });

  it("shows each project's guard from the files, with or without a plan; none without one", () => {
    const guarded = loadProjects({
      "planned.yaml": PLANNED_YAML.replace(
        "  gotv-reminder:\n",
        "  gotv-reminder:\n    guard: {max_failure_rate: 0.05, max_opt_out_rate: 0.02, min_sample: 250}\n",
      ),
    });
    for (const plan of [fullPlan(), null]) {
      const withGuard = buildGalleryModel({ projects: guarded, plan });
      const rows = new Map(withGuard.overview.rows.map((r) => [r.address, r.guard]));
      expect(rows.get("gotv-reminder")).toEqual({
        max_failure_rate: 0.05,
        max_opt_out_rate: 0.02,
        min_sample: 250,
      });
      expect(rows.get("rally-invite")).toBeNull();
      const page = renderGalleryHtml(withGuard);
      expect(page).toContain(
        `<td data-label="Guard"><span class="nowrap">failure &gt; 5%</span><br><span class="nowrap">opt-out &gt; 2%</span><br><span class="zone nowrap">from 250 sent</span></td>`,
      );
      expect(page).toContain(`<td data-label="Guard">none</td>`);
      // The card says it in full; a scheduled project without a guard says it has none.
      expect(page).toContain(
        "<dt>Guard</dt><dd>campaignctl watch pauses the send when its failure rate is over 5% or its opt-out rate is over 2%, judged once 250 messages are sent</dd>",
      );
      expect(page).toContain(
        `<dt>Guard</dt><dd><span class="unknown">none: campaignctl watch does not pause this send</span></dd>`,
      );
    }
    // The totals rows keep one cell per column (an empty Guard cell).
    expect(html).toContain(
      `<td class="number nowrap" data-label="Estimated cost">$813.90</td><td data-label="Guard"></td><td data-label="Plan status"></td></tr>`,
    );
  });

  it("without a plan: the files' schedules in send order, the lists as written, figures not known", () => {
    const offline = buildGalleryModel({ projects, plan: null });
    expect(offline.overview.totals).toBeNull();
    expect(offline.overview.rows[0]).toMatchObject({
      sends: null,
      listsFrom: "file",
      contactLists: ["Ward 3 Likely Voters"],
      recipients: null,
      costCents: null,
      status: { kind: "none", text: "not planned" },
    });
    // Scheduled projects first (all at one time: file order), then the paused one.
    expect(offline.overview.rows.at(-1)?.address).toBe("early-vote-push");
    expect(renderGalleryHtml(offline)).toContain("Total: not known until planned");
  });
});
