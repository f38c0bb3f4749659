/**
 * The README stays short and every link in it and in docs/ leads somewhere inside the repository:
 * relative links resolve to an existing file, `#anchors` to a heading of the target, and nothing
 * escapes the repository root.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { linkTargets } from "../helpers/markdown-links.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** GitHub's heading anchor: lower case, punctuation dropped (not `-` or `_`), spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe("README.md", () => {
  test("is under 25,000 bytes", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThan(25_000);
  });

  test("keeps the two quick-start commands", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm ci && node dist/cli/main.js plan --sandbox examples/\nnpm test\n");
  });

  test("links every docs page", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const targets = new Set(linkTargets(readme).map((t) => t.split("#")[0]));
    const pages = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
    expect(pages.filter((p) => !targets.has(`docs/${p}`))).toEqual([]);
  });
});

describe.each(markdownFiles())("links in %s", (file) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  const local = linkTargets(text).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));

  test("never point outside the repository", () => {
    const escaping = local.filter((t) => {
      const path = t.split("#")[0] ?? "";
      if (path === "") return false;
      const target = resolve(dirname(join(ROOT, file)), decodeURIComponent(path));
      return relative(ROOT, target).startsWith("..") || /(^|\/)\.\.\/shared\b/.test(t);
    });
    expect(escaping).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\//);
  });

  test("resolve to existing files and headings", () => {
    const broken: string[] = [];
    for (const t of local) {
      const [path = "", anchor] = t.split("#");
      const target =
        path === "" ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${t}: no such file`);
        continue;
      }
      if (anchor !== undefined && anchor !== "" && target.endsWith(".md")) {
        if (!anchorsOf(readFileSync(target, "utf8")).has(anchor)) broken.push(`${t}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("link checker", () => {
  test("finds links and computes GitHub anchors", () => {
    expect(linkTargets('see [a](docs/a.md#x) and `[b](c.md)` and <a href="d.md">d</a>')).toEqual([
      "docs/a.md#x",
      "d.md",
    ]);
    expect(slug("The embedded sandbox: `--sandbox`")).toBe("the-embedded-sandbox---sandbox");
    expect(slug("Ordering: `after`, `--target`, `--exclude`")).toBe("ordering-after---target---exclude");
  });
});
