/**
 * The demo world (`npm run demo`, `orchestrate smoke` and the dashboard tests): a sandbox whose
 * config names three agents served by the bundled fakes, with claude answering like a
 * rate-limited account so heavy work falls back, and the client playing Claude Code.
 */
import { makeSandbox, type Sandbox } from "./sandbox.ts";

/** The agents every demo world has; the demo script adds its own beside them. */
export const DEMO_AGENTS = `agents:
  cheap:
    backend: opencode
    model: deepseek/deepseek-v4-flash
  codex-main:
    backend: codex
    model: gpt-5.5
    sandbox: workspace-write
    scores: { review: 90, coding: 85 }
  claude-opus:
    backend: claude
    model: opus
`;

/** Tiers and the fallback that makes heavy work fall back from the rate-limited claude. */
export const DEMO_ROUTING = `tiers:
  light: [cheap]
  standard: [codex-main]
  heavy: [claude-opus]
fallbacks:
  heavy: standard
allowCrossProviderFallback: true
`;

export const DEMO_CONFIG = `# demo config: every id below is served by a fake CLI from fakes/
${DEMO_AGENTS}${DEMO_ROUTING}`;

export const DEMO_ENV: Readonly<Record<string, string>> = {
  FAKE_CLAUDE_SCENARIO: "rate-limit",
  ORCHESTRATE_HOST_RUNTIME: "claude",
  OPENAI_API_KEY: "sk-demo-not-a-real-key-000000000000",
  // opencode counts a provider as signed in when its key variable is set (as the real one does).
  DEEPSEEK_API_KEY: "sk-demo-not-a-real-key-000000000001",
};

export function demoSandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const box = makeSandbox({ ...DEMO_ENV, ...extraEnv });
  box.writeConfig(DEMO_CONFIG);
  return box;
}
