/**
 * The one walk of a parsed file (src/campaign/yaml-walk.ts) builds the file's data exactly as the
 * `yaml` library's `doc.toJS()` does (issue 36: validate no longer runs `toJS` after its walk for
 * duplicate keys), or leaves it to `toJS`: same values, same key order, same own properties, same
 * prototypes, over hand-picked documents and seeded random ones.
 */
import { describe, expect, it } from "vitest";
import { type Document, LineCounter, parseAllDocuments, stringify, type YAMLMap } from "yaml";
import { parseCampaignFile } from "../../src/campaign/parse-yaml.js";
import { walkDocument } from "../../src/campaign/yaml-walk.js";
import { seededRandom } from "../../src/sandbox/ids.js";
import { pick, type Rng } from "../helpers/seeded.js";

function parse(text: string): { doc: Document.Parsed; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  if (!Array.isArray(docs) || docs[0] === undefined) throw new Error("test bug: no document");
  return { doc: docs[0], lineCounter };
}

/** `actual` and `expected` alike down to key order, own-property descriptors and prototypes. */
function expectSame(actual: unknown, expected: unknown, at = "$"): void {
  if (typeof expected !== "object" || expected === null) {
    expect(Object.is(actual, expected), `${at}: ${String(actual)} vs ${String(expected)}`).toBe(true);
    return;
  }
  expect(typeof actual, at).toBe("object");
  const a = actual as object;
  expect(Object.getPrototypeOf(a), `${at} prototype`).toBe(Object.getPrototypeOf(expected));
  expect(Reflect.ownKeys(a), `${at} keys`).toEqual(Reflect.ownKeys(expected));
  for (const key of Reflect.ownKeys(expected)) {
    const want = Object.getOwnPropertyDescriptor(expected, key);
    const got = Object.getOwnPropertyDescriptor(a, key);
    expect({ ...got, value: undefined }, `${at}.${String(key)} descriptor`).toEqual({
      ...want,
      value: undefined,
    });
    expectSame(got?.value, want?.value, `${at}.${String(key)}`);
  }
}

/** The walk's data, or "toJS" when it leaves the document to `toJS`; compared with `toJS` when built. */
function walked(text: string): unknown {
  const { doc, lineCounter } = parse(text);
  const walk = walkDocument({ file: "f.yaml", text, lineCounter }, doc);
  if (walk.data === undefined) return "toJS";
  expectSame(walk.data.value, doc.toJS({ maxAliasCount: 100 }));
  return walk.data.value;
}

describe("walkDocument's data", () => {
  it("is toJS's for plain maps, sequences and every kind of scalar", () => {
    const data = walked(
      [
        "version: 1",
        "n: 012",
        "x: 0x1F",
        "f: 1.50",
        "inf: .inf",
        "t: true",
        "empty:",
        "tilde: ~",
        "'quoted': \"a\\tb\"",
        "folded: >-\n  one\n  two",
        "list: [1, two, {three: 3}, [], {}]",
        "block:\n  - a\n  -\n  - k: v",
        "2: two",
        "1: one",
        "? complex scalar key\n: yes",
      ].join("\n"),
    );
    expect(Object.keys(data as object)).toEqual([
      "1",
      "2",
      "version",
      "n",
      "x",
      "f",
      "inf",
      "t",
      "empty",
      "tilde",
      "quoted",
      "folded",
      "list",
      "block",
      "complex scalar key",
    ]);
  });

  it("keeps the last of repeated keys at the first's place, and `__proto__` and `constructor` as own data", () => {
    const data = walked(
      "a: 1\nb: 2\na: 3\n__proto__: {polluted: true}\nconstructor: c\ntoString: s\n",
    ) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(["a", "b", "__proto__", "constructor", "toString"]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("names null, boolean and number keys as toJS does, an empty key as the empty string", () => {
    walked("null: a\n~: b\ntrue: c\n1.0: d\n1e3: e\n: f\n");
    walked("[{: x}, {? : y}]");
  });

  it("leaves to toJS what it does not build the library's way", () => {
    expect(walked("base: &b {x: 1}\nother: *b\n")).toBe("toJS");
    expect(walked("a: &a 1\nb: *a\n")).toBe("toJS");
    expect(walked("base: {x: 1}\nm:\n  <<: {y: 2}\n")).toBe("toJS");
    expect(walked("? [a, b]\n: c\n")).toBe("toJS");
    expect(walked("? {a: b}\n: c\n")).toBe("toJS");
    expect(walked("%YAML 1.1\n---\ns: !!set {a, b}\no: !!omap [a: 1]\nd: 2001-12-14\n")).toBe("toJS");
    expect(walked(`${"[".repeat(65)}${"]".repeat(65)}`)).toBe("toJS");
  });

  it("builds data nested exactly as deep as tooDeep allows", () => {
    expect(walked(`${"[".repeat(64)}1${"]".repeat(64)}`)).not.toBe("toJS");
  });

  it("is toJS's for seeded random documents, block and flow", () => {
    const rng = seededRandom(36);
    for (let n = 0; n < 300; n++) {
      const value = randomValue(rng, 0);
      walked(stringify(value, { collectionStyle: rng() < 0.5 ? "block" : "flow" }));
    }
  });
});

describe("parseCampaignFile", () => {
  it("hands the walk's data on only for a usable file", () => {
    const good = parseCampaignFile({ path: "a.yaml", text: "version: 1\nprojects: {}\n", sha256: "" });
    expect(good.data?.value).toEqual({ version: 1, projects: {} });
    const broken = parseCampaignFile({ path: "b.yaml", text: "version: 1\nprojects: [\n", sha256: "" });
    expect(broken.usable).toBe(false);
    expect(broken.data).toBeUndefined();
  });
});

const KEYS = ["a", "b", "__proto__", "constructor", "1", "01", "", "<<x", "true", "null", "x y", "é"];

function randomScalar(rng: Rng): unknown {
  return pick(rng, [
    () => null,
    () => true,
    () => Math.floor(rng() * 1000) - 500,
    () => rng() * 10,
    () => pick(rng, KEYS),
    () => "multi\nline text",
    () => "0x10",
  ])();
}

function randomValue(rng: Rng, depth: number): unknown {
  const r = rng();
  if (depth > 3 || r < 0.4) return randomScalar(rng);
  if (r < 0.7) return Array.from({ length: Math.floor(rng() * 4) }, () => randomValue(rng, depth + 1));
  const map = new Map<unknown, unknown>();
  for (let i = Math.floor(rng() * 5); i > 0; i--)
    map.set(rng() < 0.8 ? pick(rng, KEYS) : randomScalar(rng), randomValue(rng, depth + 1));
  return map;
}

describe("walkDocument's problems", () => {
  it("reports each repeated key against its first, in a small map as in a large one", () => {
    const filler = Array.from({ length: 30 }, (_, i) => `k${i}: ${i}`);
    for (const keys of [
      ["a: 1", "b: 2", "a: 3", "a: 4"],
      [...filler, "a: 1", "b: 2", "a: 3", "a: 4"],
    ]) {
      const text = `top:\n${keys.map((k) => `  ${k}\n`).join("")}`;
      const { doc, lineCounter } = parse(text);
      const { problems } = walkDocument({ file: "f.yaml", text, lineCounter }, doc);
      const firstA = text.indexOf("  a:") + 2;
      expect(
        problems.map((p) => [p.code, p.range?.start.offset, p.related?.[0]?.range?.start.offset]),
      ).toEqual([
        ["campaign.duplicate-key", text.indexOf("a: 3"), firstA],
        ["campaign.duplicate-key", text.indexOf("a: 4"), firstA],
      ]);
    }
  });

  it("names a small map's keys as before: numbers and strings alike, other keys skipped, nested maps apart", () => {
    // `12` and `"12"` are one name; an alias key and an empty key are not compared (an alias key is
    // an error of its own, `campaign.yaml-key`); the inner map reuses the names of the outer one
    // while the outer one's own keys are already checked.
    const text = [
      "top:",
      "  x: &k 1",
      "  12: a",
      "  *k : b",
      "  inner: {x: 1, y: 2, x: 3}",
      '  "12": c',
      "  : d",
      "  x: e",
      "",
    ].join("\n");
    const { doc, lineCounter } = parse(text);
    const { problems } = walkDocument({ file: "f.yaml", text, lineCounter }, doc);
    expect(problems.map((p) => [p.code, p.range?.start.offset, p.related?.[0]?.range?.start.offset])).toEqual(
      [
        ["campaign.duplicate-key", text.indexOf('"12"'), text.indexOf("12: a")],
        ["campaign.duplicate-key", text.indexOf("x: e"), text.indexOf("x: &k")],
        ["campaign.yaml-key", text.indexOf("*k"), undefined],
        ["campaign.duplicate-key", text.indexOf("x: 3"), text.indexOf("x: 1")],
      ],
    );
  });

  it("lists the maps with a repeated key, and only those (assemble.ts's declarations rely on it)", () => {
    // `large` and `largeClean` are over the small-map size: their keys are indexed, not compared.
    const filler = Array.from({ length: 30 }, (_, i) => `  k${i}: ${i}`);
    const text = [
      "small:",
      "  a: 1",
      "  a: 2",
      "clean:",
      "  a: 1",
      "  b: {x: 1, x: 2}",
      "large:",
      ...filler,
      "  k3: again",
      "largeClean:",
      ...filler,
      "",
    ].join("\n");
    const { doc, lineCounter } = parse(text);
    const { mapsWithRepeatedKeys, problems } = walkDocument({ file: "f.yaml", text, lineCounter }, doc);
    const top = doc.contents as YAMLMap<unknown, unknown>;
    const at = (key: string) => top.get(key, true) as unknown as YAMLMap<unknown, unknown>;
    const inner = at("clean").get("b", true);
    expect(problems).toHaveLength(3);
    expect(mapsWithRepeatedKeys).toEqual([at("small"), inner, at("large")]);
    for (const map of mapsWithRepeatedKeys) expect(map).not.toBe(at("largeClean"));
  });
});
