/** Styling that turns into the identity when colour is off, so renderers never branch on it. */
import { styleText } from "node:util";

export interface Style {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

type Format = Parameters<typeof styleText>[0];
const identity = (s: string) => s;
// The caller decides whether colour is on (TTY, NO_COLOR); newer Node versions would otherwise check
// process.stdout themselves and make rendering depend on where the test runs.
const styled = (format: Format) => (s: string) => styleText(format, s, { validateStream: false });

export function styleFor(color: boolean): Style {
  if (!color)
    return {
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      cyan: identity,
    };
  return {
    bold: styled("bold"),
    dim: styled("dim"),
    red: styled("red"),
    green: styled("green"),
    yellow: styled("yellow"),
    cyan: styled("cyan"),
  };
}
