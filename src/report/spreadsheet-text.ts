/**
 * Text in a CSV cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`,
 * tab or CR) gets a leading `'`: names from the files and the API, and the API's ids and statuses
 * alike, never numbers. The one rule of every CSV the tool writes (status, results). Pure.
 */
export function spreadsheetText(value: string): string;
export function spreadsheetText(value: string | null): string | null;
export function spreadsheetText(value: string | null): string | null {
  if (value === null) return null;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
