/** `GET|POST|DELETE /_sandbox/faults`: list, add (`{spec}`, appended) and clear injected faults. */
import type { AdminRoute } from "../context.js";
import { parseFaultSpec } from "../faults/spec.js";
import { invalid, ok } from "../http/responses.js";

export const faultRoutes: readonly AdminRoute[] = [
  { method: "GET", template: "/faults", handler: ({ sandbox }) => ok(sandbox.faults.list()) },
  {
    method: "POST",
    template: "/faults",
    bodySchema: "faults",
    handler: ({ body, sandbox }) => {
      const { spec, replace } = body as { spec: string; replace?: boolean };
      const parsed = parseFaultSpec(spec);
      if (!parsed.ok) return invalid(["spec"], parsed.message, "invalid_string");
      if (replace) sandbox.faults.clear();
      sandbox.faults.add(spec);
      return ok(sandbox.faults.list());
    },
  },
  {
    method: "DELETE",
    template: "/faults",
    handler: ({ sandbox }) => {
      sandbox.faults.clear();
      return ok([]);
    },
  },
];
