/**
 * The `Date` header of a response at a virtual time: the IMF-fixdate of its second. The text of
 * the last second is kept, so a busy sandbox formats a date once a second, not once a request.
 */
let second = Number.NaN;
let text = "";

export function dateHeader(nowMs: number): string {
  const s = Math.floor(nowMs / 1000);
  if (s !== second) {
    second = s;
    text = new Date(s * 1000).toUTCString();
  }
  return text;
}
