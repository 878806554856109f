/**
 * The events an attempt keeps for classification after the stream is folded. Rare kinds (session,
 * model, error, final) are all kept; bulky ones (text, thinking, tools, usage, retries) only the
 * most recent, so a 50 MB stream does not become ~90k live objects. Classifiers read the final
 * record, errors and the last messages, never the middle of a long run.
 */
import type { AgentEvent } from "../backends/contract.ts";

const RECENT_BULKY = 500;
const RARE: ReadonlySet<AgentEvent["kind"]> = new Set(["session", "model", "error", "final"]);

export class EventLog {
  private kept: AgentEvent[] = [];
  private bulky = 0;

  push(event: AgentEvent): void {
    this.kept.push(event);
    if (RARE.has(event.kind)) return;
    this.bulky += 1;
    if (this.bulky > 2 * RECENT_BULKY) this.compact();
  }

  get events(): AgentEvent[] {
    return this.kept;
  }

  /** Drops the oldest bulky events, keeping order and every rare one. */
  private compact(): void {
    let drop = this.bulky - RECENT_BULKY;
    this.kept = this.kept.filter((event) => {
      if (drop === 0 || RARE.has(event.kind)) return true;
      drop -= 1;
      return false;
    });
    this.bulky = RECENT_BULKY;
  }
}
