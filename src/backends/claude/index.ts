/**
 * Adapter for Claude Code, written against Claude Code 2.1.332 in
 * `claude -p --output-format stream-json --verbose` mode. Its rules are in docs/backends/claude.md:
 * argv and environment in ./invocation.ts, the stream in ./parse.ts, the verdict in ./classify.ts,
 * the sign-in check in ./probes.ts, the ACP profile in ./acp.ts.
 */
import type { Adapter, ExitOutcome } from "../contract.ts";
import { claudeAcp } from "./acp.ts";
import { classifyClaude, explainClaudeFailure } from "./classify.ts";
import { CLAUDE_WEB_TOOLS, claudeInvocation } from "./invocation.ts";
import { claudeMachine } from "./machine.ts";
import { parseClaudeLine } from "./parse.ts";
import { claudeProbes, claudeReadiness } from "./probes.ts";

export const claudeAdapter: Adapter & { explain(outcome: ExitOutcome): string | undefined } = {
  backend: "claude",
  acp: claudeAcp,
  provider: { kind: "fixed", provider: "anthropic" },
  web: { tools: CLAUDE_WEB_TOOLS.join(", ") },
  ...claudeMachine,
  invocation: claudeInvocation,
  parse: parseClaudeLine,
  classify: classifyClaude,
  explain: explainClaudeFailure,
  probes: claudeProbes,
  readiness: claudeReadiness,
  supportsResume: true,
};
