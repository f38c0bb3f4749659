// The forecast benches' input (not part of campaignctl): N projects on 20 capped brands, starts
// spread over three days (a third in quiet hours, some across Pacific midnight), a tenth with
// `daily_cap_bypass`, half with a deadline, 2-segment messages, 500 to 20,000 recipients; a plan of
// them (one planned schedule each: only what the forecast hold reads) and a policy rule naming
// all four findings. Used by forecast.mjs (warm) and forecast-cold.mjs (a fresh process).

/** The benches' "now": 2026-11-02 16:00 UTC. */
export const NOW = Date.parse("2026-11-02T16:00:00Z");
const ZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"];

/** A policy whose `forecast_errors` names all four findings. */
export const RULE = { names: ["cap-pause", "past-deadline", "quiet-hours", "over-cap"] };

/** The projects, capacity (over `defaultCapacity`) and plan of N projects. */
export function forecastInput(n, defaultCapacity) {
  const brands = Object.fromEntries(Array.from({ length: 20 }, (_, b) => [`brand-${b}`, 20_000 + b * 5_000]));
  const projects = Array.from({ length: n }, (_, i) => ({
    address: `project-${i}`,
    organization: `org-${i % 7}`,
    brand: `brand-${i % 20}`,
    channel: i % 9 === 0 ? "toll-free" : "10dlc",
    recipients: 500 + ((i * 7919) % 19_500),
    segmentsPerMessage: 2,
    startMs: NOW + ((i * 104_729) % (3 * 86_400_000)),
    timezone: ZONES[i % 4],
    dailyCapBypass: i % 10 === 0,
    ...(i % 2 === 0 && { deadlineMs: NOW + 3 * 86_400_000 }),
    estimatedCostCents: 1000 + i,
  }));
  const capacity = { ...defaultCapacity, brands, throughput: { "10dlc": 4500, "toll-free": 180 } };
  const plan = {
    diagnostics: [],
    projects: projects.map((p) => ({
      address: p.address,
      diagnostics: [],
      drift: [],
      actions: [
        {
          id: `${p.address}.schedule`,
          address: p.address,
          kind: "schedule",
          status: "planned",
          depends_on: [],
        },
      ],
    })),
  };
  return { projects, capacity, plan };
}
