/**
 * The views of a plan, one per format (after Terraform's internal/command/views): a command chooses
 * a view once, by format, and hands it the judgement; the view renders every item of the plan
 * (projects and their actions, email lists and campaigns, reply rule sets, every finding) and the
 * summary line that counts them, and the forecast when the run made one. Pure.
 */
import type { Judgement } from "../plan/judge.js";
import { forecastMarkdown } from "./forecast-markdown.js";
import { forecastText } from "./forecast-text.js";
import { renderPlanHuman } from "./plan-human.js";
import { renderPlanJson } from "./plan-json.js";
import { renderPlanMarkdown } from "./plan-markdown.js";

/** `human`: the terminal; `json`: the plan document (`--json`, `--out`); `markdown`: the PR comment. */
export type PlanFormat = "human" | "json" | "markdown";

export interface PlanViewOptions {
  /** ANSI colour (human only; the caller decides: TTY and no NO_COLOR). */
  readonly color: boolean;
  /** File name to text, for source excerpts under findings (human). */
  readonly sources: ReadonlyMap<string, string>;
  /** The table of API requests by endpoint under the summary line (human: `--verbose`). */
  readonly requestTable: boolean;
  /** Where the preview gallery is published (markdown: `--gallery-url`). */
  readonly galleryUrl?: string;
}

/** Renders a judgement in one format. The result ends with a newline. */
export type PlanView = (judgement: Judgement) => string;

export function planView(format: PlanFormat, options: PlanViewOptions): PlanView {
  switch (format) {
    case "human":
      return ({ plan, forecast }) =>
        renderPlanHuman(plan, options) + (forecast === undefined ? "" : `\n${forecastText(forecast)}`);
    case "json":
      return ({ plan }) => renderPlanJson(plan);
    case "markdown":
      return ({ plan, forecast }) => {
        const markdown = renderPlanMarkdown(
          plan,
          options.galleryUrl === undefined ? {} : { galleryUrl: options.galleryUrl },
        );
        return forecast === undefined ? markdown : `${markdown}\n${forecastMarkdown(forecast)}`;
      };
  }
}
