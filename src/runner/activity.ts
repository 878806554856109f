/** Turns a delegate's events into the short "what it is doing" text of a progress message. */
import type { AgentEvent, Usage } from "../backends/contract.ts";

export function describeEvent(event: AgentEvent): string | undefined {
  switch (event.kind) {
    case "thinking":
      return "thinking";
    case "tool":
      return event.phase === "start" ? `running ${clip(event.detail ?? event.name)}` : `finished ${clip(event.detail ?? event.name)}${event.exitCode ? ` (exit ${event.exitCode})` : ""}`;
    case "file_change":
      return `editing ${clip(event.path)}`;
    case "text":
      return "writing its answer";
    case "retry":
      return `retrying: ${clip(event.message)}`;
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

function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
