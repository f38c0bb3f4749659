import { describe, expect, it } from "vitest";
import { type Alias, isAlias, isMap, isScalar, isSeq, type Node, parseDocument, visit } from "yaml";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { findPath, resolveAlias } from "../../src/campaign/yaml-path.js";
import { campaignFile } from "./helpers.js";

/** Anchors redefined, used before and after, nested, in keys and sequences, and one never defined. */
const TEXT = [
  "a: &x [1, 2]",
  "b: *x",
  "c:",
  "  d: &x {e: 1, f: &y three}",
  "  g: *x",
  "  h: [*y, *x, &x four]",
  "  i: *x",
  "j: *nowhere",
  "k:",
  "  - &z {m: [*z]}",
  "",
].join("\n");

function aliases(text: string): { doc: ReturnType<typeof parseDocument>; found: Alias[] } {
  const doc = parseDocument(text);
  const found: Alias[] = [];
  visit(doc, { Alias: (_key, node) => void found.push(node) });
  return { doc, found };
}

/** Every path (map keys, sequence indexes) that leads somewhere, following aliases, to depth 4. */
function allPaths(doc: ReturnType<typeof parseDocument>): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[], depth: number): void => {
    out.push(path);
    if (depth === 0) return;
    const at = isAlias(node) ? node.resolve(doc) : node;
    if (isMap(at))
      for (const pair of at.items)
        if (isScalar(pair.key)) walk(pair.value, [...path, String(pair.key.value)], depth - 1);
    if (isSeq(at)) for (const [i, item] of at.items.entries()) walk(item, [...path, i], depth - 1);
  };
  walk(doc.contents, [], 4);
  return out;
}

describe("resolveAlias (indexed once per document)", () => {
  it("answers exactly as the yaml library's Alias.resolve for every alias", () => {
    const { doc, found } = aliases(TEXT);
    expect(found.length).toBe(7);
    for (const alias of found) expect(resolveAlias(doc, alias)).toBe(alias.resolve(doc) ?? undefined);
    // the redefined anchor: `g` takes the second &x, `b` the first, `i` the third
    const node = (path: string[]): Node | undefined => findPath(doc, doc.contents, path).node;
    expect(node(["b"])).toBe(node(["a"]));
    expect(node(["c", "g"])).toBe(node(["c", "d"]));
    expect(isScalar(node(["c", "i"]))).toBe(true);
    expect(node(["j"])).toBeUndefined();
  });

  it("findPath answers as the library's own walk for every path of the fixture", () => {
    const { doc } = aliases(TEXT);
    const libraryWalk = (path: (string | number)[]) => {
      let current: unknown = doc.contents;
      for (const segment of path) {
        const at = isAlias(current) ? current.resolve(doc) : current;
        if (isMap(at))
          current = at.items.findLast(
            (p) => isScalar(p.key) && String(p.key.value) === String(segment),
          )?.value;
        else if (isSeq(at)) current = at.items[Number(segment)];
        else return undefined;
      }
      return isAlias(current) ? current.resolve(doc) : current;
    };
    const paths = allPaths(doc);
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths)
      expect(findPath(doc, doc.contents, path).node ?? undefined).toBe(libraryWalk(path));
  });

  it("an aliased template instance value is located at its anchor, for every instance", () => {
    const instance = (n: number, alias: string) =>
      [
        `      i${n}:`,
        "        organization: Adams",
        `        id: 9a000000-0000-4000-8000-00000000000${n}`,
        "        language: en",
        `        phone_numbers: ${alias}`,
      ].join("\n");
    const text = [
      "version: 1",
      "templates:",
      "  t:",
      "    message:",
      "      en: Vote! Reply STOP to opt out",
      "    channel: 10dlc",
      "    state: draft",
      "    instances:",
      instance(1, '&n ["+12020010001"]'),
      instance(2, "*n"),
      instance(3, "*n"),
      "",
    ].join("\n");
    const { campaign } = assembleCampaign([campaignFile("c.yaml", text)]);
    expect(campaign.projects.map((p) => p.address)).toEqual(["i1", "i2", "i3"]);
    const anchored = text.indexOf('["+12020010001"]');
    for (const project of campaign.projects) {
      expect(project.phoneNumbers).toEqual(["+12020010001"]);
      expect(project.locate(["phone_numbers"]).start.offset).toBe(anchored);
      expect(project.locate(["phone_numbers", 0]).start.offset).toBe(anchored + 1);
    }
  });
});
