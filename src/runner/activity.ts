/** Turns a delegate's events into the short "what it is doing" text of a progress message. */
import type { AgentEvent, Usage } from "../backends/contract.ts";

export function describeEvent(event: AgentEvent): string | undefined {
  switch (event.kind) {
    case "thinking":
      return "thinking";
    case "tool":
      return event.phase === "start"
        ? `running ${clip(event.detail ?? event.name)}`
        : `finished ${clip(event.detail ?? event.name)}${event.exitCode ? ` (exit ${event.exitCode})` : ""}`;
    case "file_change":
      return `editing ${clip(event.path)}`;
    case "text":
      return "writing its answer";
    case "retry":
      return `retrying: ${clip(event.message)}`;
    case "warning":
      return `warning: ${clip(event.message)}`;
    case "wait":
      return `waiting ${event.seconds} s ${clip(event.why)}`;
    default:
      return undefined;
  }
}

export function describeUsage(usage: Usage): string | undefined {
  const tokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  if (!tokens && usage.costUsd === undefined) return undefined;
  const cost = usage.costUsd !== undefined ? `, $${usage.costUsd.toFixed(4)}` : "";
  return `${tokens} tokens so far${cost}`;
}

/**
 * The progress line of one run: what the delegate is doing, with the running usage after it. A
 * usage report never replaces the doing (claude reports usage on every message), it amends it.
 */
export class ActivityLine {
  private doing: string | undefined;
  private usage: string | undefined;

  /** The new line after this event, or undefined when the event changes nothing shown. */
  see(event: AgentEvent, total: () => Usage): string | undefined {
    if (event.kind === "usage") {
      const usage = describeUsage(total());
      if (!usage || usage === this.usage) return undefined;
      this.usage = usage;
    } else {
      const doing = describeEvent(event);
      if (!doing) return undefined;
      this.doing = doing;
    }
    return [this.doing, this.usage].filter(Boolean).join(" · ");
  }
}

function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
