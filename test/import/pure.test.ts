/** Table-driven tests of the pure parts of import: addresses, names, lifecycle, message rendering. */
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import type { ProjectStatus } from "../../src/contract/limits.js";
import { ADDRESS_PATTERN, deriveAddresses, slugOf } from "../../src/import/addresses.js";
import { equivalent } from "../../src/import/equivalence.js";
import { scheduleOf, stateOf } from "../../src/import/lifecycle.js";
import { writtenRef } from "../../src/import/names.js";
import { importProject } from "../../src/import/project-to-yaml.js";
import { renderPair } from "../../src/import/render.js";
import { CATALOGS, project } from "./records.js";

describe("addresses", () => {
  test.each([
    ["GOTV Reminder", "gotv-reminder"],
    ["  Café — día 1!  ", "cafe-dia-1"],
    ["¡¡¡", "project"],
    ["A/B test: 50% off", "a-b-test-50-off"],
    ["x".repeat(80), "x".repeat(48)],
  ])("slugOf(%j) = %j", (name, slug) => {
    expect(slugOf(name)).toBe(slug);
    expect(slug).toMatch(ADDRESS_PATTERN);
  });

  test("names two projects share, and addresses already taken, get a suffix from the id's end", () => {
    const wanted = [
      { id: "p-0001", name: "Reminder" },
      { id: "p-0002", name: "Reminder" },
      { id: "p-0003", name: "Follow-up" },
      { id: "p-0004", name: "Unique" },
    ];
    const result = deriveAddresses(wanted, new Set(["follow-up"]));
    expect(Object.fromEntries(result)).toEqual({
      "p-0001": "reminder-p0001",
      "p-0002": "reminder-p0002",
      "p-0003": "follow-up-p0003",
      "p-0004": "unique",
    });
    // Order-independent: the same input reversed gives the same addresses.
    expect(deriveAddresses([...wanted].reverse(), new Set(["follow-up"]))).toEqual(result);
  });
});

describe("names", () => {
  test.each([
    ["l1", { value: "Voters", visible: true }],
    ["l2", { value: "l2", visible: true, comment: "Twins: 2 contact lists share the name" }],
    ["l4", { value: "l4", visible: true, comment: "l1: the name is another contact list's id" }],
    ["l9", { value: "l9", visible: false, comment: "no contact list the key can see" }],
  ])("contact list %s", (id, expected) => {
    expect(writtenRef(CATALOGS, "contact_lists", id)).toEqual({ id, ...expected });
  });
  test("a phone number is written as its E.164 number", () => {
    expect(writtenRef(CATALOGS, "phone_numbers", "n1").value).toBe("+15035550101");
  });
});

describe("lifecycle", () => {
  test.each<[ProjectStatus, string]>([
    ["draft", "draft"],
    ["awaiting_test", "tested"],
    ["ready", "tested"],
    ["scheduled", "scheduled"],
    ["active", "scheduled"],
    ["completed", "scheduled"],
    ["paused", "paused"],
  ])("live %s -> state %s", (status, state) => {
    expect(stateOf(status)).toBe(state);
  });

  test.each([
    [
      "future, in its timezone",
      "scheduled",
      "2026-12-03T15:00:00.000Z",
      true,
      { at: "2026-12-03T09:00:00-06:00", dailyCapBypass: true },
    ],
    [
      "past and active: the live time, kept for the reviewer",
      "active",
      "2026-11-30T15:00:00.000Z",
      false,
      { at: "2026-11-30T09:00:00-06:00", dailyCapBypass: false },
    ],
    [
      "past but paused: the time",
      "paused",
      "2026-11-30T15:00:00.000Z",
      false,
      { at: "2026-11-30T09:00:00-06:00", dailyCapBypass: false },
    ],
  ] as const)("%s", (_, status, scheduledAt, bypass, expected) => {
    const p = project({
      status,
      scheduled_at: scheduledAt,
      scheduled_timezone: "America/Chicago",
      daily_cap_bypass: bypass,
    });
    expect(scheduleOf(p)).toEqual({ timezone: "America/Chicago", ...expected });
  });
  test("no schedule, or a timezone outside the six: none", () => {
    expect(scheduleOf(project())).toBeUndefined();
    expect(
      scheduleOf(project({ scheduled_at: "2026-12-03T15:00:00Z", scheduled_timezone: "Europe/Paris" })),
    ).toBeUndefined();
  });
});

describe("message rendering reads back byte for byte", () => {
  test.each([
    "plain",
    "Hi {{first_name|friend}}, polls are open. Reply STOP to opt out",
    "two\nlines",
    "trailing newline\n",
    "two trailing newlines\n\n",
    "  leading spaces",
    "\n\nleading newlines",
    "emoji 🎉 “curly” ñ — non-GSM",
    "tab\there",
    "cr\r\nlf",
    "lone cr\rhere",
    "zero\u200bwidth",
    "   \n",
    "# not a comment",
    "- not a list",
    "key: not a map",
    `${"a long line ".repeat(20)}end`,
    "ends with space ",
    "line one  \nline two",
  ])("%j", (text) => {
    for (const indent of [0, 4]) {
      const rendered = renderPair("message", { kind: "scalar", value: text, message: true }, indent);
      const doc = `${" ".repeat(indent)}${rendered}\n`;
      const wrapped = indent === 0 ? doc : `a:\n  b:\n${doc}`;
      const back = parse(wrapped) as Record<string, unknown>;
      const value = indent === 0 ? back.message : (back.a as { b: { message: string } }).b.message;
      expect(value).toBe(text);
    }
  });
  test("a single-line message is folded for reading, a multi-line one literal", () => {
    expect(renderPair("message", { kind: "scalar", value: "one line", message: true }, 0)).toBe(
      "message: >-\n  one line",
    );
    expect(renderPair("message", { kind: "scalar", value: "a\nb", message: true }, 0)).toBe(
      "message: |-\n  a\n  b",
    );
  });
});

describe("equivalence: what the file says vs what import wants", () => {
  const wanted = importProject(
    project({
      status: "scheduled",
      scheduled_at: "2026-12-03T15:00:00Z",
      scheduled_timezone: "America/Chicago",
    }),
    CATALOGS,
  ).wanted;
  const get = (key: Parameters<typeof equivalent>[0]) =>
    wanted.get(key as never) ?? { kind: "keep" as const };
  test.each<[Parameters<typeof equivalent>[0], unknown, boolean]>([
    ["contact_lists", ["Voters"], true],
    ["contact_lists", ["l1"], true],
    ["contact_lists", ["Voters", "l1"], true],
    ["contact_lists", ["Twins"], false],
    ["phone_numbers", ["+15035550101"], true],
    ["campaign", "GOTV", true],
    ["campaign", "c2", false],
    ["type", undefined, true],
    ["type", "survey", false],
    ["schedule", { at: "2026-12-03T09:00:00-06:00", timezone: "America/Chicago" }, true],
    ["schedule", { at: "2026-12-03T15:00:00Z", timezone: "America/Chicago" }, true],
    ["schedule", { at: "2026-12-03T15:00:00Z", timezone: "America/Denver" }, false],
    ["schedule", { at: "now", timezone: "America/Chicago" }, false],
    ["link_tracking", undefined, true],
    ["link_tracking", { destination_url: "https://x.test" }, false],
    ["pause", { reason: "anything" }, true],
    ["opt_out_footer", false, true],
    ["opt_out_footer", undefined, false],
  ])("%s: %j -> %s", (key, written, same) => {
    expect(equivalent(key, written, get(key), CATALOGS)).toBe(same);
  });
});
