/** Diagnostic codes of experiments (`experiments:` in the campaign files; docs/experiments.md). Each entry: a stable code and what it means. */
export const EXPERIMENT_CODES = {
  "experiment.too-few-arms": "an experiment names fewer than two arms: there is nothing to compare",
  "experiment.arm-repeated": "an experiment names one arm twice",
  "experiment.metric-unknown":
    "an experiment's metric is none of reply_rate, click_rate, opt_out_rate and delivery_rate",
  "experiment.unknown-arm": "an experiment's arm names no project of the campaign files",
  "experiment.unknown-holdout": "an experiment's holdout names no project of the campaign files",
  "experiment.holdout-is-arm":
    "an experiment's holdout is one of its arms: the holdout sends the winner's wording to the rest of the list, after the verdict",
  "experiment.arm-shared":
    "a project is an arm (or the holdout) of two experiments: its figures would count twice and two brakes would judge it",
  "experiment.duplicate-name": "two experiments of the campaign files have the same name",
  "experiment.holdout-deferred":
    "the holdout's send waits for its experiment's verdict to name a winner (plan shows the verdict)",
  "experiment.holdout-drift":
    "the experiment has a winner, but the holdout's live text is not the winning arm's: its send is blocked until the holdout sends the winner's wording",
  "experiment.holdout-sending-early":
    "the holdout is scheduled or sending live while its experiment has no winner yet",
} as const;

export type ExperimentCode = keyof typeof EXPERIMENT_CODES;
