import { describe, expect, it } from "vitest";
import { linkTrackingRule } from "../../src/campaign/lint/link-tracking.js";
import type { LinkTrackingSpec } from "../../src/campaign/model.js";
import { lineOf, projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T12:00:00Z");

describe("link tracking rule", () => {
  const cases: { name: string; tracking: LinkTrackingSpec; expected: [string, string][] }[] = [
    {
      name: "https destination",
      tracking: { destinationUrl: "https://riverside.vote/volunteer" },
      expected: [],
    },
    {
      name: "https destination with a tag in the query",
      tracking: { destinationUrl: "https://riverside.vote/v?ward={{ward}}" },
      expected: [],
    },
    {
      name: "http destination",
      tracking: { destinationUrl: "http://riverside.vote/volunteer" },
      expected: [["lint.link-tracking-not-https", "link_tracking.destination_url"]],
    },
    {
      name: "not a URL",
      tracking: { destinationUrl: "riverside.vote/volunteer" },
      expected: [["lint.link-tracking-not-https", "link_tracking.destination_url"]],
    },
    {
      name: "whole-URL tag without fallback",
      tracking: { destinationUrl: "{{website}}" },
      expected: [["lint.link-tracking-fallback-required", "link_tracking.destination_url"]],
    },
    {
      name: "whole-URL tag with https fallback",
      tracking: { destinationUrl: " {{ website }} ", fallbackUrl: "https://riverside.vote" },
      expected: [],
    },
    {
      name: "whole-URL tag with http fallback",
      tracking: { destinationUrl: "{{website}}", fallbackUrl: "http://riverside.vote" },
      expected: [["lint.link-tracking-not-https", "link_tracking.fallback_url"]],
    },
    {
      name: "standard param field",
      tracking: { destinationUrl: "https://riverside.vote", paramField: "zip" },
      expected: [],
    },
    {
      name: "declared param field",
      tracking: { destinationUrl: "https://riverside.vote", paramField: "volunteer_shift" },
      expected: [],
    },
    {
      name: "unknown param field",
      tracking: { destinationUrl: "https://riverside.vote", paramField: "volunteer_shfit" },
      expected: [["lint.link-tracking-unknown-param-field", "link_tracking.param_field"]],
    },
  ];
  it.each(cases)("$name", ({ tracking, expected }) => {
    const project = projectSpec({ linkTracking: tracking, fields: ["volunteer_shift"] });
    const diagnostics = linkTrackingRule(project, { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual(
      expected.map(([code, path]) => [code, "error", lineOf(path.split("."))]),
    );
  });
  it("suggests the declared field a param_field was meant to be", () => {
    const project = projectSpec({
      linkTracking: { destinationUrl: "https://riverside.vote", paramField: "volunteer_shfit" },
      fields: ["volunteer_shift"],
    });
    expect(linkTrackingRule(project, { now })[0]?.hint).toMatch(/^did you mean "volunteer_shift"\?/);
  });
  it("is quiet without link tracking", () => {
    expect(linkTrackingRule(projectSpec(), { now })).toEqual([]);
  });
});
