/**
 * Types of the two modules of undici that src/api/transport.ts loads instead of its index (which
 * loads every part of undici): undici ships types for its index only. Each is a CommonJS module
 * whose `module.exports` is the one value below (an ES `import()` gives it as `default`).
 */
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export = AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";

  /** `Dispatcher.prototype.request` of undici's index: called with the agent as `this`. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
