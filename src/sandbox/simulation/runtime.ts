/**
 * Starting the send simulation and the webhook dispatcher for one sandbox, and finding them again
 * from a route (`runtimeOf(req.sandbox)`): the handler context stays free of phase-2 types.
 */
import type { SandboxContext } from "../context.js";
import { WebhookDispatcher } from "../webhooks/dispatcher.js";
import { SendSimulation } from "./engine.js";
import type { ObservedStore } from "./observed-store.js";

/** The running simulation of one sandbox. */
export interface SimulationRuntime {
  readonly simulation: SendSimulation;
  readonly webhooks: WebhookDispatcher;
  stop(): void;
}

const runtimes = new WeakMap<SandboxContext, SimulationRuntime>();

export function startSimulation(
  sandbox: SandboxContext,
  store: ObservedStore,
  onBug: (error: unknown) => void,
  /** The clock of the deliveries' `X-Timestamp` (default: the virtual clock). */
  webhookStampMs?: () => number,
): SimulationRuntime {
  const { clock, config } = sandbox;
  const webhooks = new WebhookDispatcher({
    store,
    clock,
    onBug,
    ...(webhookStampMs === undefined ? {} : { stampMs: webhookStampMs }),
  });
  const simulation = new SendSimulation({
    store,
    clock,
    seed: config.seed,
    settled: () => webhooks.idle(),
    onBug,
  });
  const offWebhooks = store.onChange(() => webhooks.onChange());
  const offSimulation = store.onChange(() => simulation.onChange());
  const runtime: SimulationRuntime = {
    simulation,
    webhooks,
    stop: () => {
      offWebhooks();
      offSimulation();
      simulation.stop();
      webhooks.stop();
    },
  };
  runtimes.set(sandbox, runtime);
  webhooks.onChange();
  simulation.onChange();
  return runtime;
}

export function runtimeOf(sandbox: SandboxContext): SimulationRuntime | undefined {
  return runtimes.get(sandbox);
}
