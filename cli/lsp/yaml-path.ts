/**
 * Where the cursor is in a campaign file being typed, read from indentation alone, so that it works
 * on text that does not parse yet (a key half written). Pure. The path names each mapping key from
 * the root and `[]` for an item of a block list: `projects`, `gotv`, `test`, `contacts`, `[]`.
 */

interface Line {
  /** Column of the first character of the line's content (after `- ` for a list item). */
  readonly content: number;
  /** Column of the `-` when the line starts a list item. */
  readonly dash?: number;
  /** The mapping key the line starts with, if any. */
  readonly key?: string;
}

const KEY = /^([A-Za-z0-9_.-]+)\s*:(\s|$)/;

function lineOf(text: string): Line | undefined {
  const indent = text.length - text.trimStart().length;
  let rest = text.slice(indent);
  if (rest === "" || rest.startsWith("#")) return undefined;
  let content = indent;
  let dash: number | undefined;
  while (rest.startsWith("- ") || rest === "-") {
    dash = content;
    const after = rest.slice(1);
    const gap = after.length - after.trimStart().length;
    content += 1 + gap;
    rest = after.trimStart();
  }
  const key = KEY.exec(rest)?.[1];
  return { content, ...(dash === undefined ? {} : { dash }), ...(key === undefined ? {} : { key }) };
}

/**
 * The path of the mapping that holds a key at `line` (0-based) whose content starts at column
 * `content`, `[]` included when that mapping is a list item's (`dash` set: the item's dash column).
 */
export function pathAt(lines: readonly string[], line: number, content: number, dash?: number): string[] {
  const path: string[] = [];
  let want = content;
  let item = dash;
  if (item !== undefined) path.unshift("[]");
  for (let l = line - 1; l >= 0; l--) {
    const above = lineOf(lines[l] ?? "");
    if (above === undefined) continue;
    if (item !== undefined) {
      // Looking for the key that holds the list whose items start at column `item`.
      if (above.dash === item) continue;
      if (above.content > item || above.key === undefined) continue;
    } else {
      // Looking for the key whose value is the mapping at column `want`.
      if (above.dash !== undefined && above.content === want) {
        path.unshift("[]");
        item = above.dash;
        continue;
      }
      if (above.content >= want || above.key === undefined) continue;
    }
    path.unshift(above.key);
    want = above.content;
    item = above.dash;
    if (item !== undefined) path.unshift("[]");
    // A key at the first column: no line above holds it (a 10,000-project file is not read to its top).
    else if (want === 0) break;
  }
  return path;
}

/** What the text before the cursor on its line says is being typed. */
export type CursorSpot =
  /** A mapping key (letters so far in `prefix`) of the mapping at `path`. */
  | { readonly kind: "key"; readonly path: readonly string[]; readonly prefix: string }
  /** A value of the list or scalar of `path` (its last element is the key). */
  | { readonly kind: "value"; readonly path: readonly string[]; readonly prefix: string }
  | { readonly kind: "other" };

/** The spot of the cursor at `line`, `character` (0-based, UTF-16) in `text`. */
export function cursorSpot(text: string, line: number, character: number): CursorSpot {
  const lines = text.split(/\r?\n/);
  const before = (lines[line] ?? "").slice(0, character);
  // `key: [a, b, pre|` or `key: pre|`: a value of that key.
  const inline = /^(\s*(?:-\s+)*)([A-Za-z0-9_.-]+)\s*:\s*(\[[^\]]*?,?\s*)?([A-Za-z0-9_./-]*)$/.exec(before);
  if (inline !== null) {
    const head = lineOf(before) ?? { content: before.length };
    const key = inline[2] ?? "";
    return {
      kind: "value",
      path: [...pathAt(lines, line, head.content, head.dash), key],
      prefix: inline[4] ?? "",
    };
  }
  // `  - pre|`: an item of the list of the key above.
  const item = /^(\s*)-\s+([A-Za-z0-9_./-]*)$/.exec(before);
  if (item !== null) {
    const dash = (item[1] ?? "").length;
    const path = pathAt(lines, line, dash + 2, dash);
    // An item that is a scalar is a value of the list's key; it may also start a mapping's key.
    return { kind: "value", path: path.slice(0, -1), prefix: item[2] ?? "" };
  }
  // `    pre|`: a key of the mapping at this indentation.
  const key = /^(\s*)([A-Za-z0-9_.-]*)$/.exec(before);
  if (key !== null) {
    return { kind: "key", path: pathAt(lines, line, (key[1] ?? "").length), prefix: key[2] ?? "" };
  }
  return { kind: "other" };
}
