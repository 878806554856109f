/**
 * Adapter for OpenAI Codex CLI, written against codex-cli 0.171.0 in `codex exec --json` mode. Its
 * rules are in docs/backends/codex.md: argv in ./invocation.ts, the stream in ./parse.ts, the
 * verdict in ./classify.ts, the sign-in check in ./probes.ts, the rollout (the only place the
 * model is recorded) in ./machine.ts, the ACP profile in ./acp.ts.
 */
import type { Adapter } from "../contract.ts";
import { codexAcp } from "./acp.ts";
import { classifyCodex } from "./classify.ts";
import { codexInvocation } from "./invocation.ts";
import { codexMachine } from "./machine.ts";
import { codexQuotaFile } from "./quota.ts";
import { parseCodexLine, parseCodexStderr } from "./parse.ts";
import { codexProbes, codexReadiness } from "./probes.ts";

export const codexAdapter: Adapter = {
  backend: "codex",
  acp: codexAcp,
  provider: { kind: "fixed", provider: "openai" },
  // `-c web_search="live"` offers the hosted web_search tool, "disabled" withholds it (peers' argv).
  web: { tools: "web_search" },
  ...codexMachine,
  quotaFile: codexQuotaFile,
  invocation: codexInvocation,
  parse: parseCodexLine,
  parseStderr: parseCodexStderr,
  classify: classifyCodex,
  preflight: true,
  readiness: codexReadiness,
  probes: codexProbes,
  supportsResume: true,
};
