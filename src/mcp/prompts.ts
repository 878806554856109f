/**
 * MCP prompts (slash commands): `consult`, `status`, `review` where the config has a consult.review
 * block and `workflow` where it has a consult.workflow block (seed 001: advertised only when its
 * tools are — a command that could only say "no reviewers are configured" reads like a bug); with
 * workflows on, `status` covers them too. Expanding a prompt only builds text — it
 * sends nothing, spawns nothing and opens no store — and every argument is optional: a missing one
 * becomes an instruction to ask the person for it rather than a guess. Plain data, no schema
 * library, so listing prompts costs nothing at startup.
 */
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from "@modelcontextprotocol/sdk/types.js";
import { blockAt, readRawConfig } from "../config/presence.ts";
import { namingFor, seedText } from "./tools/names.ts";

type Args = Record<string, string | undefined>;

type Env = Record<string, string | undefined>;

interface PromptDef extends Prompt {
  expand: (args: Args, env: Env) => string;
  /** Offered only when this holds for the server's environment (its config file). */
  when?: (env: Record<string, string | undefined>) => boolean;
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
  {
    name: "review",
    title: "Review with other models",
    description: "Have one (standard) or several (deep) other models review code or a change, behind a plan the person approves.",
    arguments: [
      { name: "goal", description: "What the review should judge (correctness, security, a design question)", required: false },
      { name: "mode", description: "standard (one reviewer) or deep (several; you record your own findings first)", required: false },
      { name: "material", description: "What to review: files (with line ranges), a diff, or pasted text", required: false },
    ],
    expand: expandReview,
    when: (env) => blockAt(readRawConfig(env), "consult", "review") !== undefined,
  },
  {
    name: "workflow",
    title: "Run a workflow",
    description:
      "Hold a whole job together: research, plan, brief, implement, apply, test, review and capped fix rounds, each step previewed and approved on its own.",
    arguments: [
      { name: "goal", description: "What the workflow should achieve", required: false },
      { name: "workdir", description: "The git checkout to work on (under a configured root, clean)", required: false },
      { name: "workflow_id", description: "A workflow to continue instead of starting one", required: false },
    ],
    expand: expandWorkflow,
    when: workflowsOn,
  },
];

function workflowsOn(env: Env): boolean {
  return blockAt(readRawConfig(env), "consult", "workflow") !== undefined;
}

function offered(env: Record<string, string | undefined>): PromptDef[] {
  return PROMPTS.filter((p) => !p.when || p.when(env));
}

export function listPrompts(env: Record<string, string | undefined> = {}): Prompt[] {
  return offered(env).map(({ expand: _expand, when: _when, ...prompt }) => prompt);
}

export function getPrompt(name: string, args: Record<string, string> = {}, env: Record<string, string | undefined> = {}): GetPromptResult {
  const prompts = offered(env);
  const def = prompts.find((p) => p.name === name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `No prompt named "${name}"; prompts/list shows ${prompts.map((p) => p.name).join(", ")}.`);
  const expanded = def.expand(clean(args), env);
  // Under Orchestrator MCP's tool names (tools/names.ts) the instructions name the tools as listed.
  const text = namingFor(env, () => readRawConfig(env)) === "orchestrator" ? seedText(expanded) : expanded;
  return { description: def.description, messages: [{ role: "user", content: { type: "text", text } }] };
}

/** Blank values count as missing. */
function clean(args: Record<string, string>): Args {
  const out: Args = {};
  for (const [key, value] of Object.entries(args)) if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
  return out;
}

function expandConsult(args: Args): string {
  const lines = [
    "Get a second opinion from another vendor's coding agent with orchestrate's `consult` tool (answer-only: it runs no tools and sees no files).",
  ];
  const ask: string[] = [];
  if (args.question) lines.push(`Question:\n${args.question}`);
  else ask.push("the question they want a second opinion on");
  if (args.agent) lines.push(`Agent: ${args.agent} (pass agent: "${args.agent}").`);
  if (args.capability) lines.push(`Capability: ${args.capability}.`);
  else ask.push("which capability to route by (call `list_agents` first and offer the capabilities it lists)");
  if (args.context) lines.push(`Context to pass as context:\n${args.context}`);
  else lines.push("Put any code or facts the other agent needs into `context`; ask the person if you are unsure what to include.");
  if (ask.length) {
    lines.push(`Before calling \`consult\`, ask the person for ${ask.join(", and ")}. Do not guess these and do not call \`consult\` until you have them.`);
  } else {
    lines.push("Call `consult` once with these arguments, then show the answer, its assumptions and uncertainties, and the consultation_id for follow-ups.");
  }
  return lines.join("\n\n");
}

function expandStatus(args: Args, env: Env): string {
  const workflows = workflowsOn(env);
  const lines = [
    "Report orchestrate's status to the person: call `list_tiers` (which tiers are configured and to which agents) and `list_agents` (which consult agents this host can reach, and why others are excluded). Summarize briefly; do not start any work.",
  ];
  if (workflows) lines.push("Also call `workflow_status` without an id and list the stored workflows with their status and round.");
  const lookups = workflows
    ? "call `job_status` with that id; if no job has it, `get_consultation`; if no consultation has it, `workflow_status` with workflow_id"
    : "call `job_status` with that id; if no job has it, call `get_consultation` with it";
  if (args.id) {
    lines.push(`Also report on "${args.id}": ${lookups}.`);
  } else {
    lines.push(
      `If the person asked about a particular job, consultation${workflows ? " or workflow" : ""}, ask them for its id, then ${lookups.replace("with that id", "with it")}.`,
    );
  }
  return lines.join("\n\n");
}

function expandReview(args: Args): string {
  const lines = ["Get a review from other models with orchestrate's review tools. It is a handshake with the person; do not skip a step."];
  const ask: string[] = [];
  if (args.goal) lines.push(`Goal:\n${args.goal}`);
  else ask.push("what the review should judge");
  const mode = args.mode === "deep" || args.mode === "standard" ? args.mode : undefined;
  if (mode) lines.push(`Mode: ${mode}.`);
  else ask.push("standard (one reviewer) or deep (several reviewers)");
  if (args.material) lines.push(`Material: ${args.material}`);
  else ask.push("which files, diff or text to review");
  if (ask.length) lines.push(`First ask the person for ${ask.join(", and ")}. Do not guess these.`);
  lines.push(
    [
      "Then:",
      "1. Call `review` with goal, mode and material (text, or {path, start_line, end_line} excerpts — the reviewers see nothing else). It sends nothing.",
      "2. Show the person the plan: reviewers, material size, requests, and every credential-shaped location it lists. Ask whether to mask those (default) or send them as is.",
      `3. Only once they agree, call \`review_run\` with review_id and token${mode === "deep" ? " — and, because this is a deep review, host_findings: your own findings, written before you see any reviewer's" : " (in deep mode also host_findings: your own findings, recorded before you see theirs)"}.`,
      "4. Read every reviewer's findings. If a reviewer failed or replied unparseably, call `review_retry`.",
      "5. Call `review_finalize`: carry every critical finding's id into a critical combined finding, even where reviewers disagree; reject or accept a risk only with a reason. Then tell the person the result.",
    ].join("\n"),
  );
  return lines.join("\n\n");
}

function expandWorkflow(args: Args): string {
  const lines = [
    "Run a workflow with orchestrate's workflow tools. Every step is two calls — `workflow_plan_step` previews it and returns a one-time token, then `workflow_run_step` (a delegated step) or `workflow_record_host_step` (your own) spends it — and the person approves each step; there is no one-call form.",
  ];
  if (args.workflow_id) {
    lines.push(`Continue workflow ${args.workflow_id}: call \`workflow_status\` with workflow_id "${args.workflow_id}" and plan the step it names as next.`);
  } else {
    const ask: string[] = [];
    if (args.goal) lines.push(`Goal:\n${args.goal}`);
    else ask.push("what the workflow should achieve");
    if (args.workdir) lines.push(`Workdir: ${args.workdir}`);
    else ask.push("which git checkout to work on (it must be under a configured root and clean)");
    if (ask.length) lines.push(`First ask the person for ${ask.join(", and ")}. Do not guess these.`);
    lines.push("Then call `workflow_start` with goal and workdir. It sends nothing.");
  }
  lines.push(
    [
      "For each step:",
      "1. Call `workflow_plan_step` with the step `workflow_status` names and context: the source and notes the step needs. A delegated agent sees nothing else — not your checkout.",
      "2. Show the person the preview (agent, execution mode, context size) and go on only once they agree.",
      "3. Spend the token: `workflow_run_step` for an agent's or the reviewers' step (a long one may answer with a job id: call `job_wait`), `workflow_record_host_step` for yours — test with the command, exit code, output and duration you observed; apply_patch only after you have applied the step's patch and committed it.",
      "4. Call `workflow_status` for what comes next. Finalize each review through the synthesize step, carrying every critical and important finding; a fix round answers the findings still open.",
      "Stop when workflow_status says completed or needs_attention, and tell the person which, with its open findings.",
    ].join("\n"),
  );
  return lines.join("\n\n");
}
