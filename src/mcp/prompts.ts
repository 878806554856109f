/**
 * MCP prompts (slash commands): `consult` and `status`. Expanding a prompt only builds text — it
 * sends nothing, spawns nothing and opens no store — and every argument is optional: a missing one
 * becomes an instruction to ask the person for it rather than a guess. Plain data, no schema
 * library, so listing prompts costs nothing at startup.
 */
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from "@modelcontextprotocol/sdk/types.js";

type Args = Record<string, string | undefined>;

interface PromptDef extends Prompt {
  expand: (args: Args) => string;
}

const PROMPTS: PromptDef[] = [
  {
    name: "consult",
    title: "Consult another agent",
    description: "Ask another vendor's coding agent for a second opinion through the consult tool.",
    arguments: [
      { name: "question", description: "What to ask", required: false },
      { name: "capability", description: "Which capability to route by, e.g. coding or review (list_agents shows them)", required: false },
      { name: "agent", description: "A specific agent id instead of routing", required: false },
      { name: "context", description: "Code or notes the other agent needs (it sees no files)", required: false },
    ],
    expand: expandConsult,
  },
  {
    name: "status",
    title: "orchestrate status",
    description: "Summarize what orchestrate can reach from here: tiers, consult agents, and a job or consultation if you name one.",
    arguments: [{ name: "id", description: "A job or consultation id to report on", required: false }],
    expand: expandStatus,
  },
];

export function listPrompts(): Prompt[] {
  return PROMPTS.map(({ expand: _expand, ...prompt }) => prompt);
}

export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const def = PROMPTS.find((p) => p.name === name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `No prompt named "${name}"; prompts/list shows consult and status.`);
  const text = def.expand(clean(args));
  return { description: def.description, messages: [{ role: "user", content: { type: "text", text } }] };
}

/** Blank values count as missing. */
function clean(args: Record<string, string>): Args {
  const out: Args = {};
  for (const [key, value] of Object.entries(args)) if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
  return out;
}

function expandConsult(args: Args): string {
  const lines = ["Get a second opinion from another vendor's coding agent with orchestrate's `consult` tool (answer-only: it runs no tools and sees no files)."];
  const ask: string[] = [];
  if (args.question) lines.push(`Question:\n${args.question}`);
  else ask.push("the question they want a second opinion on");
  if (args.agent) lines.push(`Agent: ${args.agent} (pass agent: "${args.agent}").`);
  if (args.capability) lines.push(`Capability: ${args.capability}.`);
  else ask.push("which capability to route by (call `list_agents` first and offer the capabilities it lists)");
  if (args.context) lines.push(`Context to pass as context:\n${args.context}`);
  else lines.push("Put any code or facts the other agent needs into `context`; ask the person if you are unsure what to include.");
  if (ask.length) {
    lines.push(`Before calling consult, ask the person for ${ask.join(", and ")}. Do not guess these and do not call consult until you have them.`);
  } else {
    lines.push("Call consult once with these arguments, then show the answer, its assumptions and uncertainties, and the consultation_id for follow-ups.");
  }
  return lines.join("\n\n");
}

function expandStatus(args: Args): string {
  const lines = ["Report orchestrate's status to the person: call `list_tiers` (which tiers are configured and to which agents) and `list_agents` (which consult agents this host can reach, and why others are excluded). Summarize briefly; do not start any work."];
  if (args.id) {
    lines.push(`Also report on "${args.id}": call \`job_status\` with that id; if no job has it, call \`get_consultation\` with it.`);
  } else {
    lines.push("If the person asked about a particular job or consultation, ask them for its id, then use `job_status` or `get_consultation`.");
  }
  return lines.join("\n\n");
}
