import { join } from "node:path";
import type { AcpProfile } from "../contract.ts";
import { asObject as asRecord } from "../events.ts";
import { AUTH_TEXT, CAPACITY_TEXT, TRANSPORT_TEXT } from "./failure-text.ts";
import { GEMINI_NO_MCP, TRUST_THIS_RUN } from "./invocation.ts";
import { GEMINI_RERUN_DELAY_MS } from "./machine.ts";
import { usageOf } from "./parse.ts";

/**
 * gemini over ACP (`gemini --acp`, 0.61.0; docs/acp.md): the headless isolation switches apply
 * to the ACP mode too (no MCP server of the person's, no extensions in answer mode, the workspace
 * trusted for this run only) and so does the private home capping its retries at one attempt.
 * Answer mode is gemini's `default` mode, where it asks before a write or a shell command it does
 * not deem read-only (a harmless `echo` runs unasked in every mode: the transport's fail-closed
 * catches it); a route is `autoEdit`. set_model accepts any id; the served model comes back in
 * `_meta.quota.model_usage` (the only agent that says so), with the router's `auto` beside it.
 * It announces a mode change as a `[MODE_UPDATE] <mode>` message chunk, dropped from the answer.
 * It takes 6–7 s to exit on a closed stdin, so its group is ended after a second. Its session
 * files are named by the minute they were opened and session/load re-opens that name before it
 * looks (0.61): a follow-up within the same minute found "No previous sessions found for this
 * project" — the runner waits for the minute to turn first (sessionFiles).
 */
export const geminiAcp: AcpProfile = {
  launch: ["gemini", "--acp"],
  args: (req) => ["--allowed-mcp-server-names", GEMINI_NO_MCP, ...(req.mode === "answer" ? ["-e", "none"] : [])],
  env: () => ({ ...TRUST_THIS_RUN }),
  modes: { answer: "default", route: "autoEdit" },
  setModel: "set_model",
  exitGraceMs: 1000,
  failures: { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT },
  fromMeta: (meta) => {
    const quota = asRecord(meta.quota);
    const served = Array.isArray(quota?.model_usage)
      ? quota.model_usage.map((u) => asRecord(u)?.model).filter((m): m is string => typeof m === "string" && m !== "auto")
      : [];
    const count = asRecord(quota?.token_count);
    return { models: served, ...(count ? { usage: usageOf(count) } : {}) };
  },
  noiseText: /^\[MODE_UPDATE\] \S+$/,
  // The person's own .gemini/tmp (the private home links it): where the sessions outlive the run.
  sessionFiles: {
    root: (env, home) => join(env.GEMINI_CLI_HOME || home, ".gemini", "tmp"),
    name: (sessionId, minute) => `session-${minute}-${sessionId.slice(0, 8)}.jsonl`,
  },
  writes: {
    isolatedWrite: false,
    patch: true,
    why: "gemini over ACP (its autoEdit mode) has no containment test of its own; the headless proof does not carry over",
  },
  // Tokens in PromptResponse._meta.quota.token_count with the answer; no cost; the served model in the same _meta.
  // Retries are capped at one attempt as headless, so the runner re-runs it once (machine.ts).
  traits: {
    usage: { tokens: "final", cost: "none", turns: "none" },
    identity: "stream",
    resumedUsage: "per-turn",
    containment: "none",
    capacityRerun: { delayMs: GEMINI_RERUN_DELAY_MS },
  },
};
