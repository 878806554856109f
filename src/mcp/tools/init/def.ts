/**
 * Conversational setup, advertised only with ORCHESTRATE_ALLOW_INIT=1 (or MCP_ROUTER_ALLOW_INIT=1).
 * A model may look and propose; only a human at a terminal can make a proposal live.
 */
import { defineTool } from "../../define.ts";

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

export const initTools = [
  defineTool({
    name: "init_status",
    group: "init",
    description:
      "Setup: which coding-agent CLIs are installed (version, flag compatibility, sign-in), the models each CLI lists (untrusted), and which tiers are configured (presence only). Writes nothing.",
    annotations: { title: "Setup status", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.initStatusInput, output: s.initStatusOutput };
    },
    handler: async () => (await handlers()).initStatus,
  }),
  defineTool({
    name: "init_preview",
    group: "init",
    description:
      "Setup: validate a proposed orchestrate config (same keys as config.yaml) exactly as the server would load it; returns the diff against the current file and the risks. Writes nothing.",
    annotations: { title: "Preview a config", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.initPreviewInput, output: s.initPreviewOutput };
    },
    handler: async () => (await handlers()).initPreview,
  }),
  defineTool({
    name: "init_apply",
    group: "init",
    description:
      "Setup: stage a proposed config as <config>.pending (never the live file). The person then runs `orchestrate accept-pending` in a terminal to review and promote it.",
    annotations: { title: "Stage a config for review", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.initApplyInput, output: s.initApplyOutput };
    },
    handler: async () => (await handlers()).initApply,
  }),
];
