/** The forecast (docs/forecast.md): declared capacity + projects to send -> timeline. Pure. */

export { DEFAULT_SEND_WINDOW } from "../text/send-window.js";
export {
  combineCapacity,
  DEFAULT_CAPACITY,
  DEFAULT_DAILY_CAP,
  DEFAULT_THROUGHPUT,
  dailyCapOf,
} from "./capacity.js";
export { forecast, messagesPerMinute } from "./forecast.js";
export { capacityOfProjects, forecastProjectOf, type LiveFacts } from "./from-spec.js";
export type * from "./types.js";
