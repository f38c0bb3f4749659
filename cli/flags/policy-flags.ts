/**
 * The policy flags of validate, plan and apply, declared once: `--policy FILE` adds a policy on top
 * of those found above the campaign files (never instead of them), and `--loosen-policy RULE`
 * (repeatable) turns a rule off for this run, visibly: the plan header, its Markdown and JSON, and a
 * warning `policy.loosened` name it; `--require-policy` fails a run that finds no policy (see
 * docs/policy.md).
 */
import { type Command, InvalidArgumentError } from "commander";
import { POLICY_RULE_NAMES, type PolicyRuleName } from "../../src/policy/model.js";

function loosenRule(value: string, previous: readonly PolicyRuleName[] = []): PolicyRuleName[] {
  const rule = POLICY_RULE_NAMES.find((name) => name === value);
  if (rule === undefined)
    throw new InvalidArgumentError(`not a policy rule; use one of ${POLICY_RULE_NAMES.join(", ")}`);
  return [...previous, rule];
}

/** Adds `--policy`, `--require-policy` and `--loosen-policy` to `command` and returns it for chaining. */
export function addPolicyOptions(command: Command): Command {
  return command
    .option(
      "--policy <file>",
      "enforce this policy file too, on top of every campaignctl.policy.yaml (or .yml) above the campaign files (up to the outermost repository root); it may add or tighten rules, not loosen them",
    )
    .option(
      "--require-policy",
      "fail (policy.required, exit 1) when no policy file applies to the campaign files and no --policy is given; the shipped CI pipelines pass it",
    )
    .option(
      "--loosen-policy <rule>",
      "turn off this rule of the policies found, for this run (repeatable); shown in the plan and as a warning",
      loosenRule,
    );
}
