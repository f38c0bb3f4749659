/**
 * Issue 27 item 5: the campaign file schema does not mislead plain YAML editors. Every value the
 * schema restricts (an enum, a const, a pattern) says in its own description what to write, with
 * an example or the list of choices, since that is what an editor shows beside the error; and
 * `schedule.at` says it is a date-time with an offset, or now.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

type Node = Record<string, unknown>;
const SCHEMA = JSON.parse(readFileSync("schemas/campaign.schema.json", "utf8")) as Node;

/** Every subschema with an enum, const or pattern, by its JSON pointer. */
function restricted(node: unknown, at: string, out: [string, Node][] = []): [string, Node][] {
  if (Array.isArray(node)) {
    node.forEach((n, i) => {
      restricted(n, `${at}/${i}`, out);
    });
  } else if (typeof node === "object" && node !== null) {
    const n = node as Node;
    // A `properties` map may have a property named `pattern` (a reply rule's): only a string is one.
    if (Array.isArray(n.enum) || "const" in n || typeof n.pattern === "string") out.push([at, n]);
    for (const [k, v] of Object.entries(n)) restricted(v, `${at}/${k}`, out);
  }
  return out;
}

describe("the campaign file schema's descriptions", () => {
  test("every enum, const and pattern has a description that says what to write", () => {
    const nodes = restricted(SCHEMA, "#");
    expect(nodes.length).toBeGreaterThanOrEqual(15);
    for (const [at, node] of nodes) {
      const description = node.description;
      expect(typeof description, at).toBe("string");
      const text = String(description);
      // An example, the choices, or the word to write: something a person can copy.
      const listsChoices = Array.isArray(node.enum) && node.enum.every((v) => text.includes(String(v)));
      const namesConst = "const" in node && text.includes(String(node.const));
      const hasExample = /such as|write|e\.g\./i.test(text);
      expect(listsChoices || namesConst || hasExample, `${at}: ${text}`).toBe(true);
    }
  });

  test("schedule.at says it is a date-time with an offset, or now", () => {
    const nodes = restricted(SCHEMA, "#");
    const at = JSON.stringify(SCHEMA).match(/"at":\{"title":"send time","description":"([^"]*)"/)?.[1];
    expect(at).toMatch(/^A date-time with an offset, or now/);
    const now = nodes.find(([p]) => p.endsWith("/schedule/properties/at/anyOf/0"))?.[1];
    expect(now?.description).toContain("`now`");
  });
});
