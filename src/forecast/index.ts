/** The forecast (docs/forecast.md): declared capacity + projects to send -> timeline. Pure. */
export {
  combineCapacity,
  DEFAULT_CAPACITY,
  DEFAULT_DAILY_CAP,
  DEFAULT_THROUGHPUT,
  dailyCapOf,
} from "./capacity.js";
export { forecast, messagesPerMinute } from "./forecast.js";
export { capacityOfProjects, forecastProjectOf, type LiveFacts } from "./from-spec.js";
export { DEFAULT_SEND_WINDOW } from "./local-hours.js";
export type * from "./types.js";
