/**
 * The one redactor (src/text/redact.ts): any run of 8 or more characters of a secret, in any case,
 * across line breaks and JSON's escapes, is masked; shorter runs and other text are left alone.
 */
import { describe, expect, test } from "vitest";
import { createRedactor, MASK, redactDeep } from "../../src/text/redact.js";

const KEY = "pc_live_Q7xLm2Vb9RtKw4Zp8NcY";
const redact = createRedactor([KEY, undefined, ""]);

describe("createRedactor", () => {
  test.each([
    { name: "the key itself", text: `key=${KEY}`, expected: `key=${MASK}` },
    { name: "upper-cased", text: `KEY=${KEY.toUpperCase()}!`, expected: `KEY=${MASK}!` },
    { name: "lower-cased", text: `(${KEY.toLowerCase()})`, expected: `(${MASK})` },
    { name: "only its tail", text: `ends with ${KEY.slice(-10)}.`, expected: `ends with ${MASK}.` },
    { name: "only a middle run of 8", text: `x${KEY.slice(5, 13)}y`, expected: `x${MASK}y` },
    {
      name: "split across a line break",
      text: `${KEY.slice(0, 12)}\n${KEY.slice(12)} end`,
      expected: `${MASK} end`,
    },
    {
      name: "split across CRLF and indentation",
      text: `a ${KEY.slice(0, 9)}\r\n    ${KEY.slice(9)}`,
      expected: `a ${MASK}`,
    },
    {
      name: "split by JSON's escaped newline",
      text: `"${KEY.slice(0, 10)}\\n${KEY.slice(10)}"`,
      expected: `"${MASK}"`,
    },
    {
      name: "inside HTML",
      text: `<p>Invalid key <b>${KEY}</b></p>`,
      expected: `<p>Invalid key <b>${MASK}</b></p>`,
    },
    { name: "inside JSON", text: JSON.stringify({ echo: KEY }), expected: JSON.stringify({ echo: MASK }) },
    { name: "twice", text: `${KEY} and ${KEY.toUpperCase()}`, expected: `${MASK} and ${MASK}` },
  ])("masks the key $name", ({ text, expected }) => {
    expect(redact(text)).toBe(expected);
  });

  test("leaves a run of 7 and unrelated text alone", () => {
    const seven = KEY.slice(3, 10);
    expect(redact(`a ${seven} b`)).toBe(`a ${seven} b`);
    expect(redact("GET /projects/123: 404 Not Found")).toBe("GET /projects/123: 404 Not Found");
  });

  test("masks several secrets; a secret shorter than 8 is masked whole, in any case", () => {
    const r = createRedactor(["whsec_listener_0123456789abcdef", "tiny1"]);
    expect(r("sig WHSEC_LISTENER_0123 and TINY1")).toBe(`sig ${MASK} and ${MASK}`);
  });

  test("with twenty keys, a run of any one is masked wherever it hides; other text is left whole", () => {
    const keys = Array.from(
      { length: 21 },
      (_, i) => `pc_live_sbx_o${String(i).padStart(2, "0")}_k${i * 7919}Zq${i}Wm`,
    );
    const many = createRedactor(keys);
    const key = keys[17] as string;
    expect(many(`{"echo":"${key.slice(0, 11)}\\n${key.slice(11).toUpperCase()}"}`)).toBe(
      `{"echo":"${MASK}"}`,
    );
    expect(many(`tail ${key.slice(-8)}!`)).toBe(`tail ${MASK}!`);
    const plain = `${"GET /projects/9a000001-0000-4000-8000-000000000001 200 ".repeat(50)}pc_live`;
    expect(many(plain)).toBe(plain);
  });

  /** The key inside a longer text, so that it starts at each of base64's three alignments. */
  const embedded = (lead: string) => Buffer.from(`{"authorization":"${lead}${KEY}","seen":true}`);
  test.each([
    ["base64", (b: Buffer) => b.toString("base64")],
    ["base64url", (b: Buffer) => b.toString("base64url")],
    ["hex", (b: Buffer) => b.toString("hex")],
    ["HEX", (b: Buffer) => b.toString("hex").toUpperCase()],
    [
      "percent-encoded, every byte",
      (b: Buffer) => [...b].map((x) => `%${x.toString(16).padStart(2, "0")}`).join(""),
    ],
    [
      "percent-encoded, upper-case digits",
      (b: Buffer) => [...b].map((x) => `%${x.toString(16).toUpperCase()}`).join(""),
    ],
  ] as const)("masks the key in %s, embedded at each alignment", (_name, encode) => {
    for (const lead of ["", "x", "xy"]) {
      const encoded = encode(embedded(lead));
      const out = redact(`echo: ${encoded}`);
      expect(out).toContain(MASK);
      // What is left around the mask is no trace: its decoding holds no run of 8 of the key.
      for (const part of out.slice("echo: ".length).split(MASK)) {
        const kinds = [
          Buffer.from(part, "base64").toString("latin1"),
          Buffer.from(part, "base64url").toString("latin1"),
          Buffer.from(part.length % 2 === 0 ? part : part.slice(1), "hex").toString("latin1"),
          decodeURIComponent(part.replace(/%(?![0-9a-f]{2})/gi, "")),
        ];
        for (const decoded of kinds)
          for (let i = 0; i + 8 <= KEY.length; i++) expect(decoded).not.toContain(KEY.slice(i, i + 8));
      }
    }
  });

  test("masks base64 of the key upper- and lower-cased, split over lines as MIME writes it", () => {
    for (const variant of [KEY.toUpperCase(), KEY.toLowerCase()]) {
      const b64 = Buffer.from(`Bearer ${variant}`).toString("base64");
      expect(redact(b64)).toContain(MASK);
      expect(redact(`${b64.slice(0, 10)}\r\n${b64.slice(10)}`)).toContain(MASK);
    }
    const mixed = KEY.replace(/_/g, "%5F");
    expect(redact(`key=${mixed}&x=1`)).toBe(`key=${MASK}&x=1`);
  });

  test("encoded forms leave other encoded text alone", () => {
    const other = Buffer.from("sk_test_ZZZZZZZZZZZZZZZZZZZZZ another key entirely");
    for (const text of [
      other.toString("base64"),
      other.toString("hex"),
      "9a000001-0000-4000-8000-000000000001 a1b2c3d4e5f60718293a4b5c6d7e8f90",
      "https://example.org/?q=hello%20world&next=%2Fprojects%2F123",
    ])
      expect(redact(text)).toBe(text);
  });

  test("a secret that is not ASCII is masked in any case", () => {
    const r = createRedactor(["clé-secrète-très-longue"]);
    expect(r("echo CLÉ-SECRÈTE-TRÈS")).toBe(`echo ${MASK}`);
    expect(r("echo clé-sec")).toBe("echo clé-sec");
  });

  test("a character that lower-cases to two units (İ) is compared unit by unit", () => {
    const r = createRedactor(["İstanbul-secret-key-9"]);
    expect(r("echo İSTANBUL-SE ok")).toBe(`echo ${MASK} ok`);
    expect(r("echo i̇stanbul-se ok")).toBe(`echo ${MASK} ok`);
    expect(r("echo İstanb ok")).toBe("echo İstanb ok"); // 7 units lower-cased: no run of 8
  });

  test("many texts without a trace go through whole; a trace anywhere in a long text is found", () => {
    // The quick test's table and its rolling window: the key's runs at every offset of a long text.
    const filler = '{"type":"accepted","payload":{"to":"+15035550101","status":"sent"}}\n'.repeat(40);
    expect(redact(filler)).toBe(filler);
    for (let at = 0; at < 80; at += 7) {
      const run = KEY.slice(at % 20, (at % 20) + 8);
      const text = `${filler.slice(0, at * 13)}${run}${filler.slice(at * 13)}`;
      expect(redact(text)).toContain(MASK);
      expect(redact(text).toLowerCase()).not.toContain(run.toLowerCase());
    }
  });

  test("a run of exactly 8 is found after any text before it, whatever that text's length", () => {
    // The quick test's rolling hash must forget every unit older than the last 8.
    const before = 'Zq~|é%41\\t {"a":[1,2]}\u0130x';
    for (let length = 0; length <= before.length * 2; length++)
      for (const at of [0, 7, 20]) {
        const run = KEY.slice(at, at + 8);
        const text = `${before.repeat(2).slice(0, length)}${run}`;
        expect(redact(text)).toContain(MASK);
        expect(redact(text).toLowerCase()).not.toContain(run.toLowerCase());
      }
  });

  test("the same secrets give the same redactor, built once", () => {
    expect(createRedactor([KEY, undefined])).toBe(redact);
    expect(createRedactor([`${KEY}x`])).not.toBe(redact);
  });

  test("with no secret, text is returned as it is", () => {
    expect(createRedactor([undefined, ""])("anything")).toBe("anything");
  });

  test("redactDeep walks objects and arrays", () => {
    expect(redactDeep({ a: [KEY.toUpperCase(), 3], b: { c: `x ${KEY.slice(-9)}` } }, redact)).toEqual({
      a: [MASK, 3],
      b: { c: `x ${MASK}` },
    });
  });
});
