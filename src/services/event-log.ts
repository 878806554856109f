/** Moved to runner/event-log.ts. This re-export stays only until bench/stream-parse.ts imports it from there. */
export { EventLog } from "../runner/event-log.ts";
