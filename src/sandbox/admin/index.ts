/** Every `/_sandbox` route (outside the contract; no key). Phase 2 adds its modules here. */
import type { AdminRoute } from "../context.js";
import { emailListAdminRoutes } from "../email/lists-admin.js";
import { suppressionAdminRoutes } from "../email/suppressions.js";
import { clockRoutes } from "./clock.js";
import { faultRoutes } from "./faults.js";
import { inboundRoutes } from "./inbound.js";
import { logRoutes } from "./logs.js";
import { adminProjectRoutes } from "./projects.js";
import { sendingRoutes } from "./sending.js";
import { webhookEndpointRoutes } from "./webhook-endpoints.js";
import { webhookRoutes } from "./webhooks.js";

export const adminRoutes: readonly AdminRoute[] = [
  ...clockRoutes,
  ...adminProjectRoutes,
  ...sendingRoutes,
  ...webhookRoutes,
  ...webhookEndpointRoutes,
  ...logRoutes,
  ...faultRoutes,
  ...inboundRoutes,
  ...suppressionAdminRoutes,
  ...emailListAdminRoutes,
];
