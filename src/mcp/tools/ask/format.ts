/**
 * The ask tools' readable text blocks. A client that reads only the text still gets what the
 * envelope says: the answer (or that there is none and why), which model served, whether that was
 * a fallback, the finish reason and the usage.
 */
import type { AskEnvelope, CapabilityListing } from "../../../services/ask/index.ts";

export function formatAsk(e: AskEnvelope): string {
  const served = e.model_used
    ? `${e.capability_requested} → ${e.model_used}${e.fallback_used ? " (fallback: not the first choice)" : ""}`
    : e.capability_requested;
  const usage = e.usage ? ` · ${e.usage.total_tokens} tokens${e.usage.cost_usd !== undefined ? ` · $${e.usage.cost_usd.toFixed(6)}` : ""}` : "";
  const head = `${served} · finish ${e.finish_reason ?? "none"} · ${e.latency_ms} ms${usage}`;
  if (!e.ok) return head;
  if (e.insufficient_context) return `${head}\ninsufficient_context: the context given does not support an answer.`;
  const body = e.data !== null && e.data !== undefined ? JSON.stringify(e.data, null, 2) : (e.content ?? "");
  return `${body}\n\n— ${head}`;
}

export function formatCapabilities(l: CapabilityListing): string {
  if (l.capabilities.length === 0) return "No capabilities are configured.";
  const lines = l.capabilities.map((c) => {
    const deployments = c.deployments
      .map((d) => `${d.id}${d.cooling_until ? ` (cooling until ${d.cooling_until})` : ""}${d.quota ? ` (quota ${d.quota})` : ""}`)
      .join(", ");
    const fallbacks = c.fallbacks.length ? ` · falls back to ${c.fallbacks.join(", ")}` : "";
    return `- ${c.name}: ${c.description || "(no description)"}\n  deployments (${c.strategy}): ${deployments}${fallbacks}`;
  });
  const b = l.limits;
  lines.push(
    `Limits: ${b.request_timeout_s} s per request (retries, fallbacks and repairs included) · prompt ≤ ${b.max_prompt_chars} chars · system ≤ ${b.max_system_chars} · context ≤ ${b.max_context_chars} · response_schema ≤ ${b.max_schema_chars} · max_output_tokens ≤ ${b.max_output_tokens} · ${b.schema_repair_attempts} repair turn(s)`,
  );
  return lines.join("\n");
}
