/**
 * GitHub Copilot CLI adapter, written against `@github/copilot` 1.0.102 in
 * `copilot --output-format json` mode. Its rules are in docs/backends/copilot.md: argv and
 * environment in ./invocation.ts, the stream in ./parse.ts, the verdict in ./classify.ts, the
 * probes in ./probes.ts, the usage file in ./machine.ts, the ACP profile in ./acp.ts.
 */
import type { Adapter } from "../contract.ts";
import { copilotAcp } from "./acp.ts";
import { classifyCopilot } from "./classify.ts";
import { copilotInvocation } from "./invocation.ts";
import { copilotMachine } from "./machine.ts";
import { parseCopilotLine } from "./parse.ts";
import { copilotProbes } from "./probes.ts";

export const copilotAdapter: Adapter = {
  backend: "copilot",
  acp: copilotAcp,
  provider: { kind: "fixed", provider: "github" },
  ...copilotMachine,
  invocation: copilotInvocation,
  parse: parseCopilotLine,
  classify: classifyCopilot,
  probes: copilotProbes(),
  supportsResume: true,
};
