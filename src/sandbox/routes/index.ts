/** Every /v1 route of the sandbox. Phase 2 adds its modules (conversations, email) to this list. */
import type { ApiRoute } from "../context.js";
import { conversationRoutes } from "./conversations.js";
import { emailRoutes } from "./email.js";
import { organizationRoutes } from "./organizations.js";
import { phoneNumberRoutes } from "./phone-numbers.js";
import { projectStatsRoute } from "./project-stats.js";
import { projectRoutes } from "./projects.js";
import { registrationRoutes } from "./registrations.js";

export const apiRoutes: readonly ApiRoute[] = [
  ...organizationRoutes,
  ...projectRoutes,
  projectStatsRoute,
  ...phoneNumberRoutes,
  ...registrationRoutes,
  ...conversationRoutes,
  ...emailRoutes,
];
