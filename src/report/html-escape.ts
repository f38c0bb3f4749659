/**
 * HTML escaping, the one implementation for every view that writes HTML (the gallery page, the raw
 * HTML of a Markdown `<summary>` line). Every piece of user text (message, names, values, reasons)
 * goes through `escapeHtml` before it reaches HTML, so `<script>` in a message shows as text. Pure.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
