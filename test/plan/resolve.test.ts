import { describe, expect, it } from "vitest";
import { buildCatalogs } from "../../src/plan/catalogs.js";
import { resolveReferences } from "../../src/plan/resolve.js";
import {
  at,
  BRAND,
  contactList,
  LIST_DNT,
  LIST_VOL,
  LIST_WARD,
  MEDIA,
  ORG,
  PHONE_1,
  PHONE_2,
  phoneNumber,
  type SpecOverrides,
  spec,
  TCR,
  TFV,
  type WorldOverrides,
  world,
} from "./builders.js";

function resolve(file: SpecOverrides, overrides: WorldOverrides = {}) {
  const live = world(overrides);
  return resolveReferences(spec(file), live, buildCatalogs(live));
}

describe("references by name or id", () => {
  it.each([
    ["contact list by name", { contactLists: ["Volunteer Prospects"] }, "contactLists", [LIST_VOL]],
    ["contact list by id", { contactLists: [LIST_WARD] }, "contactLists", [LIST_WARD]],
    ["suppression list by name", { suppressionLists: ["Do Not Text"] }, "suppressionLists", [LIST_DNT]],
    ["10DLC campaign by name", { tenDlcCampaign: "GOTV 2026" }, "tenDlcCampaign", TCR],
    ["brand by name, from the lists", { brand: "Riverside Democrats" }, "brand", BRAND],
    ["brand by id", { brand: BRAND }, "brand", BRAND],
    ["phone number by E.164", { phoneNumbers: ["+15035550102"] }, "phoneNumbers", [PHONE_2]],
    ["phone number by id", { phoneNumbers: [PHONE_1] }, "phoneNumbers", [PHONE_1]],
    [
      "toll-free verification by name",
      { tollFreeVerification: "Volunteer Line" },
      "tollFreeVerification",
      TFV,
    ],
    ["toll-free verification by id", { tollFreeVerification: TFV }, "tollFreeVerification", TFV],
    ["media by name", { media: ["rally-flyer.png"] }, "media", [MEDIA]],
    ["media by id", { media: [MEDIA] }, "media", [MEDIA]],
    ["organization by name", { organization: "Riverside Democrats" }, "organization", ORG],
  ] as const)("%s", (_, file, key, expected) => {
    const result = resolve(file);
    expect(result.diagnostics).toEqual([]);
    expect(result.unresolved).toBe(false);
    const value = result.refs[key];
    expect(Array.isArray(value) ? value.map((r) => r.id) : (value as { id: string } | undefined)?.id).toEqual(
      expected,
    );
  });

  it("a phone number by nickname, on a shared number", () => {
    const shared = phoneNumber(PHONE_2, "+15035550102", {
      shared: true,
      nickname: "Parent line",
      brand_id: null,
    });
    const result = resolve({ phoneNumbers: ["Parent line"] }, { phoneNumbers: [shared] });
    expect(result.refs.phoneNumbers).toEqual([{ id: PHONE_2, display: "+15035550102 (Parent line)" }]);
  });

  it("a toll-free verification by a number's registration name when no verification was read", () => {
    const result = resolve({ tollFreeVerification: "Volunteer Line" }, { tollFreeVerifications: new Map() });
    expect(result.refs.tollFreeVerification?.id).toBe(TFV);
  });

  it("a brand only phone numbers carry", () => {
    const result = resolve(
      { brand: "Young Dems" },
      {
        tenDlcCampaigns: [],
        contactLists: [],
        phoneNumbers: [
          phoneNumber(PHONE_1, "+15035550101", { brand_id: "b-young", brand_name: "Young Dems" }),
        ],
      },
    );
    expect(result.refs.brand).toEqual({ id: "b-young", display: "Young Dems" });
  });
});

describe("unresolved references", () => {
  it("a missing name is an error at the item with close candidates", () => {
    const result = resolve({ contactLists: ["Ward 3 Likely Voters", "Volunter Prospects"] });
    expect(result.unresolved).toBe(true);
    expect(result.refs.contactLists).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      severity: "error",
      code: "plan.reference-missing",
      range: at(["contact_lists", 1]),
      hint: 'did you mean "Volunteer Prospects"?',
    });
  });

  it("a missing name with nothing close says so", () => {
    const result = resolve({ tenDlcCampaign: "Totally different" });
    expect(result.diagnostics[0]?.code).toBe("plan.reference-missing");
    expect(result.diagnostics[0]?.hint).not.toContain("did you mean");
    expect(result.diagnostics[0]?.range).toEqual(at(["campaign"]));
  });

  it("a name two records share is ambiguous, listing both with ids", () => {
    const result = resolve(
      { contactLists: ["Volunteers"] },
      { contactLists: [contactList("e-1", "Volunteers"), contactList("e-2", "Volunteers")] },
    );
    expect(result.diagnostics[0]?.code).toBe("plan.reference-ambiguous");
    expect(result.diagnostics[0]?.message).toContain("Volunteers (e-1), Volunteers (e-2)");
    expect(result.diagnostics[0]?.hint).toContain("id");
  });

  it("a brand name carried by two brand ids is ambiguous", () => {
    const result = resolve(
      { brand: "Riverside Democrats" },
      { contactLists: [contactList("e-1", "x", { brand_id: "b-other" })] },
    );
    expect(result.diagnostics[0]?.code).toBe("plan.reference-ambiguous");
  });

  it("an id wins over a record named like it", () => {
    const result = resolve(
      { contactLists: [LIST_WARD] },
      { contactLists: [contactList(LIST_WARD, "Ward"), contactList("e-9", LIST_WARD)] },
    );
    expect(result.refs.contactLists?.map((r) => r.id)).toEqual([LIST_WARD]);
  });

  it("a media file whose read was forbidden is unreadable, not missing", () => {
    const result = resolve(
      { media: ["f-x"] },
      { media: new Map([["f-x", { kind: "forbidden", message: "ORG_ACCESS_DENIED" }]]) },
    );
    expect(result.diagnostics[0]?.code).toBe("plan.reference-unreadable");
    expect(result.diagnostics[0]?.range).toEqual(at(["media", 0]));
  });

  it("a media id that reads 404 is missing", () => {
    const result = resolve({ media: ["f-x"] }, { media: new Map([["f-x", { kind: "not-found" }]]) });
    expect(result.diagnostics[0]?.code).toBe("plan.reference-missing");
  });

  it("names match exactly: another case is a did-you-mean", () => {
    const result = resolve({ tenDlcCampaign: "gotv 2026" });
    expect(result.diagnostics[0]?.hint).toBe('did you mean "GOTV 2026"?');
  });
});
