/**
 * The campaign files the language server's randomized agreement test edits (agreement.test.ts),
 * and the edits it makes inside one entry (a project, or a template's instance): each takes the
 * entry's text and gives it changed, or undefined where it does not apply.
 */
import { pick, type Rng } from "../helpers/seeded.js";

/** An edit of one entry's text (`file`: the whole text, for values taken from other entries). */
export type EntryEdit = (entry: string, rng: Rng, file: string) => string | undefined;

// The texts are bench/lsp-input.mjs's, the language-server bench's inputs at a smaller count.
export { projectsText, templatesText } from "../../bench/lsp-input.mjs";

/** `from` replaced by `to` in the entry, where it holds `from`. */
const swap =
  (from: string, to: string): EntryEdit =>
  (entry) =>
    entry.includes(from) ? entry.replace(from, to) : undefined;

/** A line added after the entry's key line (`indent`: the body's). */
const addLine =
  (line: string): EntryEdit =>
  (entry) => {
    const at = entry.indexOf("\n") + 1;
    return entry.slice(0, at) + line + entry.slice(at);
  };

/** One of the entry's body lines deleted. */
const deleteLine: EntryEdit = (entry, rng) => {
  const lines = entry.split("\n");
  if (lines.length < 3) return undefined;
  const at = 1 + Math.floor(rng() * (lines.length - 2));
  return [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n");
};

/** The entry's id replaced by another id of the file (a duplicate id). */
const takeId: EntryEdit = (entry, rng, file) => {
  const ids = [...file.matchAll(/id: (9[a-c][0-9a-f-]+)/g)].map((m) => m[1] as string);
  const own = /id: (9[a-c][0-9a-f-]+)/.exec(entry)?.[1];
  return own === undefined ? undefined : entry.replace(own, pick(rng, ids));
};

/** The entry's key replaced by another entry's (a duplicate address), or back to a fresh one. */
const takeKey: EntryEdit = (entry, rng, file) => {
  const indent = /^ */.exec(entry)?.[0] ?? "";
  const keys = [...file.matchAll(new RegExp(`^${indent}([a-z]+-[0-9]+):`, "gm"))].map((m) => m[1] as string);
  const own = /^ *([^:]+):/.exec(entry)?.[1];
  return own === undefined ? undefined : entry.replace(`${own}:`, `${pick(rng, [...keys, `${own}x`])}:`);
};

export const PROJECT_EDITS: readonly EntryEdit[] = [
  swap("{{first_name|", "{{frist_name|"),
  swap("{{frist_name|", "{{first_name|"),
  swap(". Reply STOP to opt out", ""),
  swap("friend}}, Ward", "friend}}, Ward 🗳️"),
  swap("Tuesday", "Tuesday at the Café Olé ☕"),
  swap("after: [p-", "after: [px-"),
  swap("after: [px-", "after: [p-"),
  swap("    schedule:\n", "    shedule:\n"),
  swap("    shedule:\n", "    schedule:\n"),
  swap('message: "Hi', "message: 'Hi"),
  swap("state: scheduled", "state: paused"),
  swap('at: "2026-12-0', 'at: "2026-10-0'),
  swap("T22:00:00", "T03:00:00"),
  takeId,
  takeKey,
  addLine("    # a note\n"),
  addLine("\n"),
  deleteLine,
];

export const INSTANCE_EDITS: readonly EntryEdit[] = [
  swap("language: es", "language: en"),
  swap("language: en", "language: es"),
  swap("language: es", "language: fr"),
  swap("Courthouse}", "Courthóuse}"),
  swap("Courthouse}", "Courthouse of the county seat, second floor, room 204, by the east doors}"),
  swap("Courthouse}", "Courthouse on the second floor in room 204 by the east doors of the county seat}"),
  swap("Courthouse}", "Courthouse ☎}"),
  swap("County", "Countyy"),
  swap("merge_defaults:", "merge_default:"),
  swap("merge_default:", "merge_defaults:"),
  addLine("        timezone: America/Denver\n"),
  addLine('        schedule: {local: "2027-03-14T02:30"}\n'),
  addLine('        schedule: {local: "2026-11-01T01:30"}\n'),
  addLine("        contact_lists: [Spanish Speakers]\n"),
  addLine("        # a note\n"),
  addLine("        opt_out_footer: true\n"),
  takeId,
  takeKey,
  deleteLine,
];
