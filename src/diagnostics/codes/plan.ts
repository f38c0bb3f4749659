/** Diagnostic codes of the `plan` area. Each entry: a stable code and what it means. */
export const PLAN_CODES = {
  "plan.placeholder": "reserved while the plan area is built",
} as const;

export type PlanCode = keyof typeof PLAN_CODES;
