import { describe, expect, it } from "vitest";
import { campaignSchema } from "../../src/campaign/schema.js";
import {
  PAUSE_REASON_MAX,
  PAUSE_REASON_MIN,
  SCHEDULE_TIMEZONES,
  TEST_CONTACTS_MAX,
  TEST_CONTACTS_MIN,
} from "../../src/contract/limits.js";

interface Prop {
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly properties: Record<string, Prop>;
}
interface SchemaView {
  readonly $schema: string;
  readonly $id?: string;
  readonly title: string;
  readonly $defs: { readonly projectKeys: { readonly properties: Record<string, Prop> } };
}

/** A property that must exist (the lookups below are what this test checks). */
function prop(props: Record<string, Prop>, ...path: string[]): Prop {
  let current: Prop | undefined = { properties: props };
  for (const key of path) current = current?.properties[key];
  if (current === undefined) throw new Error(`schema lacks ${path.join(".")}`);
  return current;
}

describe("campaign.schema.json", () => {
  const schema = campaignSchema() as unknown as SchemaView;
  const project = schema.$defs.projectKeys.properties;

  it("is a 2020-12 schema known by its file and title, with no $id (no URL to fetch)", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBeUndefined();
    expect(schema.title).toBe("campaignctl campaign file");
  });

  it("states the contract's limits", () => {
    expect(prop(project, "schedule", "timezone").enum).toEqual([...SCHEDULE_TIMEZONES]);
    const contacts = prop(project, "test", "contacts");
    expect([contacts.minItems, contacts.maxItems]).toEqual([TEST_CONTACTS_MIN, TEST_CONTACTS_MAX]);
    const reason = prop(project, "pause", "reason");
    expect([reason.minLength, reason.maxLength]).toEqual([PAUSE_REASON_MIN, PAUSE_REASON_MAX]);
  });

  it("describes every project key", () => {
    for (const [key, value] of Object.entries(project))
      expect(value.description, key).toEqual(expect.any(String));
  });
});
