/**
 * Hover on a project built without the keys a schema error makes untrusted (cli/lsp/hover.ts):
 * the message is still explained, and when `merge_defaults` is the broken key the hover says its
 * values are left out rather than rendering as if the file had none.
 */
import { describe, expect, test } from "vitest";
import { hoverAt } from "../../../cli/lsp/hover.js";

const FILE = `version: 1
organization: Riverside Democrats
merge_defaults: [friend]
projects:
  gotv-reminder:
    id: p1
    name: GOTV Reminder
    channel: 10dlc
    message: "Hi {{first_name}}, vote tomorrow! Reply STOP to opt out"
    state: draft
`;

describe("hover with untrusted keys", () => {
  test("a broken merge_defaults: the message is explained, and the hover says its values are left out", () => {
    const offset = FILE.indexOf("vote tomorrow");
    const hover = hoverAt("/x/campaign.yaml", FILE, offset, {});
    expect(hover?.markdown).toContain("**gotv-reminder**: what a contact receives");
    expect(hover?.markdown).toContain("`merge_defaults` has an error, so its values are not shown here.");
    const valid = FILE.replace("merge_defaults: [friend]", "merge_defaults:\n  first_name: friend");
    const plain = hoverAt("/x/campaign.yaml", valid, valid.indexOf("vote tomorrow"), {});
    expect(plain?.markdown).toContain("> Hi friend, vote tomorrow!");
    expect(plain?.markdown).not.toContain("has an error");
  });
});
