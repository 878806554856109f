/**
 * opencode adapter — written against opencode-ai 1.18.33, `opencode run --format json`. Its rules
 * are in docs/backends/opencode.md: argv and environment in ./invocation.ts, the stream in
 * ./parse.ts, the verdict in ./classify.ts, the sign-in check in ./probes.ts, the served model
 * (`opencode export`) in ./machine.ts, the ACP profile in ./acp.ts.
 */
import type { Adapter } from "../contract.ts";
import { opencodeAcp } from "./acp.ts";
import { classifyOpencode, explainOpencode } from "./classify.ts";
import { opencodeInvocation } from "./invocation.ts";
import { opencodeMachine } from "./machine.ts";
import { parseOpencodeLine, parseOpencodeStderr, WEB_TOOLS } from "./parse.ts";
import { opencodeProbes, opencodeReadiness } from "./probes.ts";

export const opencodeAdapter: Adapter = {
  backend: "opencode",
  acp: opencodeAcp,
  // Answer mode allows these two only with web granted (opencodeAnswerConfig).
  web: { tools: Object.keys(WEB_TOOLS).join(", ") },
  provider: { kind: "model-prefix", example: "<provider>/<model>" },
  ...opencodeMachine,
  invocation: opencodeInvocation,
  parse: parseOpencodeLine,
  parseStderr: parseOpencodeStderr,
  classify: classifyOpencode,
  explain: explainOpencode,
  probes: opencodeProbes,
  readiness: opencodeReadiness,
  supportsResume: true,
};
