/**
 * The views of an apply result, one per format (after Terraform's internal/command/views): the
 * command chooses a view once and hands it the result; every view renders the whole run, its
 * actions and its email lists' syncs, and the summary line that counts them. Pure.
 */
import type { ApplyResult } from "../apply/types.js";
import { renderApplyHuman } from "./apply-human.js";
import { renderApplyJson } from "./apply-json.js";
import { renderApplyJunit } from "./apply-junit.js";
import { renderApplyMarkdown } from "./apply-markdown.js";

/** `human`: the terminal; `json`: the result document; `markdown`: a PR comment; `junit`: CI. */
export type ApplyFormat = "human" | "json" | "markdown" | "junit";

export interface ApplyViewOptions {
  readonly color: boolean;
  readonly sources: ReadonlyMap<string, string>;
  readonly requestTable: boolean;
}

/** Renders a result in one format. The result ends with a newline. */
export type ApplyView = (result: ApplyResult) => string;

export function applyView(format: ApplyFormat, options: ApplyViewOptions): ApplyView {
  switch (format) {
    case "human":
      return (result) => renderApplyHuman(result, options);
    case "json":
      return renderApplyJson;
    case "markdown":
      return (result) => renderApplyMarkdown(result);
    case "junit":
      return renderApplyJunit;
  }
}
