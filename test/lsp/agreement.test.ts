/**
 * Issue 36's acceptance for the language server: after any edit, its diagnostics equal validate's.
 * Along seeded (deterministic) random edits of a project file and of a template file (entries'
 * values changed, tags misspelt, languages switched, ids and addresses duplicated, lines inserted
 * and deleted, characters typed anywhere, YAML broken, edits undone), each in a workspace folder
 * with another campaign file and a policy, the server's check with its memory (checked
 * incrementally where it can: cli/lsp/incremental-check.ts) equals the document checked whole at
 * every step, and at every EVERY-th step equals `validate FOLDER --json` for the document (every
 * finding in full: codes, messages, ranges, related places, hints, fixes). The series must reach
 * the incremental path often, and findings of many kinds. At every step the cut of the text into
 * entries found from the edit's place (project-chunks.ts `splitAfterEdit`) is the text's own cut.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkDocument, checkMemory, type DocumentCheckContext } from "../../cli/lsp/check-document.js";
import { splitAfterEdit, splitProjects } from "../../cli/lsp/project-chunks.js";
import { diagnosticJson } from "../../src/diagnostics/json.js";
import { seededRandom } from "../../src/sandbox/ids.js";
import { runCli } from "../helpers/run-cli.js";
import { pick, type Rng } from "../helpers/seeded.js";
import { type EntryEdit, INSTANCE_EDITS, PROJECT_EDITS, projectsText, templatesText } from "./corpora.js";

const NOW = "2026-11-01T00:00:00Z";
const STEPS = 120;
const EVERY = 12;

const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** The entries of `text` at `indent` spaces (project or instance keys), as [start, end) offsets. */
function entries(text: string, indent: number): [number, number][] {
  const key = new RegExp(`^ {${indent}}[A-Za-z0-9][A-Za-z0-9_./-]*:`, "gm");
  const starts = [...text.matchAll(key)].map((m) => m.index);
  return starts.map((s, i) => {
    const next = starts[i + 1];
    if (next !== undefined) return [s, next];
    // The last entry ends at the next line less indented than its body.
    const rest = new RegExp(`^ {0,${indent}}[^ \\n#]`, "m").exec(text.slice(s + 1));
    return [s, rest === null ? text.length : s + 1 + rest.index];
  });
}

/**
 * One random edit of `text`: mostly inside an entry, sometimes anywhere, sometimes an undo of the
 * last few (taken off `history`, whose last text is `text`).
 */
function edit(
  text: string,
  rng: Rng,
  indent: number,
  entryEdits: readonly EntryEdit[],
  history: string[],
  lastWhole: boolean,
): string {
  const roll = rng();
  // Undo a few steps (an editor's undo): sometimes, and often after an edit the server checked
  // whole (a broken file, say), so the file does not stay broken for the rest of the series.
  if ((roll < 0.1 || (lastWhole && rng() < 0.6)) && history.length > 1) {
    history.length -= 1 + Math.floor(rng() * Math.min(3, history.length - 1));
    return history[history.length - 1] as string;
  }
  if (roll < 0.16) {
    // A character typed (or a few deleted) anywhere.
    const at = Math.floor(rng() * text.length);
    if (rng() < 0.5)
      return (
        text.slice(0, at) + pick(rng, ['"', ":", " ", "\n", "x", "é", "#", "{", "-", "'"]) + text.slice(at)
      );
    return text.slice(0, at) + text.slice(at + 1 + Math.floor(rng() * 4));
  }
  const all = entries(text, indent);
  if (all.length === 0) return `${text}#\n`;
  const [start, end] = pick(rng, all);
  const entry = text.slice(start, end);
  for (let attempt = 0; attempt < 8; attempt++) {
    const changed = pick(rng, entryEdits)(entry, rng, text);
    if (changed !== undefined && changed !== entry) return text.slice(0, start) + changed + text.slice(end);
  }
  // Nothing applied: a comment line added at the end of the entry.
  return `${text.slice(0, end)}${" ".repeat(indent + 2)}# note\n${text.slice(end)}`;
}

/** validate FOLDER --json's findings about `path`, as JSON. */
async function validated(folder: string, path: string): Promise<unknown[]> {
  const result = await runCli(["validate", folder, "--json", "--now", NOW]);
  const document = JSON.parse(result.stdout) as { diagnostics: { range: { file: string } | null }[] };
  return document.diagnostics.filter((d) => d.range?.file === path);
}

describe("the language server's diagnostics equal validate's after every random edit", () => {
  const corpora = [
    ["a project file", projectsText(), 2, PROJECT_EDITS, 36001],
    ["a template file", templatesText(), 6, INSTANCE_EDITS, 36002],
  ] as const;
  for (const [name, first, indent, entryEdits, seed] of corpora) {
    test(`${name} (seed ${seed}, ${STEPS} edits)`, async () => {
      const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-agreement-"));
      folders.push(folder);
      copyFileSync(
        new URL("../../examples/campaignctl.policy.yaml", import.meta.url),
        join(folder, "campaignctl.policy.yaml"),
      );
      writeFileSync(join(folder, "other.yaml"), projectsText("q", 3));
      const path = join(folder, "edited.yaml");
      const context: DocumentCheckContext = { flags: {}, cwd: folder, now: new Date(NOW), clock: "--now" };
      const memory = checkMemory();
      // What the server keeps across checks besides a document's own memory (the other file's
      // check by content, the folder's reads, the directory listings): shared by both checks of
      // every step, so the other file is read and checked once, not twice a step.
      const cache = new Map();
      const reads = new Map();
      const rng = seededRandom(seed);
      const history = [first];
      let text = first;
      let lastWhole = false;
      const codes = new Set<string>();
      // Without the memory: a fresh one each time (the document checked whole), its listings shared.
      const check = (withMemory: boolean) =>
        checkDocument(
          path,
          text,
          context,
          { folder, buffers: new Map([[path, text]]), cache, reads },
          withMemory ? memory : { ...checkMemory(), looks: memory.looks },
        );
      writeFileSync(path, text);
      expect(check(true)).toEqual(check(false));
      for (let step = 1; step <= STEPS; step++) {
        const wholeBefore = memory.counts.whole;
        const previous = text;
        const depth = history.length;
        text = edit(text, rng, indent, entryEdits, history, lastWhole);
        if (history.length === depth) history.push(text);
        // The cut after an edit, found from the edit's place, is the text's own cut.
        const cut = splitProjects(previous);
        if (cut !== undefined)
          expect(splitAfterEdit(previous, cut, text), `step ${step}`).toEqual(splitProjects(text));
        const mine = check(true);
        lastWhole = memory.counts.whole > wholeBefore;
        // An edit the server checked whole is the whole check itself (the same calls, nothing
        // reused): it is made once. Every edit checked incrementally is compared with a whole check.
        const whole = lastWhole ? mine : check(false);
        for (const d of whole) codes.add(d.code);
        expect(mine, `step ${step}:\n${text}`).toEqual(whole);
        if (step % EVERY === 0) {
          writeFileSync(path, text);
          const mine = whole.filter((d) => d.range?.file === path).map(diagnosticJson);
          expect(mine, `step ${step} against validate:\n${text}`).toEqual(await validated(folder, path));
        }
      }
      // Many edits were checked one entry alone (an undo of several edits or a broken file is checked
      // whole), and the series reached findings of many kinds.
      expect(memory.counts.incremental + memory.counts.whole).toBe(STEPS);
      expect(memory.counts.incremental).toBeGreaterThan(STEPS / 5);
      expect(codes.size).toBeGreaterThan(8);
    }, 120_000);
  }
});
