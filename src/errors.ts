/**
 * The one closed set of error codes orchestrate emits — in tool replies, job records, the CLI —
 * each with the "what to do next" a caller gets when the code's own failure gives no better hint.
 * Callers branch on these values (seed 002: "a closed set, so callers branch on a value instead of
 * matching substrings"); every output schema advertises them as an enum, `Failure.code` is typed by
 * them, and the MCP front refuses to emit anything else.
 */

export const ERROR_CODES = {
  // ---- calls and arguments ----
  invalid_arguments: "Fix the arguments named in the message and call again.",
  unknown_tool: "Call tools/list to see the available tools.",
  internal_error: "See the server's stderr log; the call had no effect you should rely on.",
  invalid_timeout: "Pass timeoutSec between 30 and 3600, or leave it out for the default.",
  invalid_token: "Ask for a new token (it is single-use and expires); nothing was changed.",
  limit_unenforceable: "Drop that limit from the call (maxWallSec and stallSec work on every backend), or route to a tier whose agents report the figure.",

  // ---- config and setup ----
  config_absent: "Run `orchestrate init` at a terminal, or point ORCHESTRATE_CONFIG at your config file.",
  config_invalid: "Fix each key named in the message; `orchestrate check` validates the file the way the server loads it.",
  config_insecure: "Apply the fix in the message (the config must be a 0600 regular file you own, in a directory others cannot write).",
  spec_too_large: "Send a smaller config proposal.",
  no_pending: "Stage a proposal first (init_apply), then run `orchestrate accept-pending` at a terminal.",
  write_failed: "Check the directory's permissions and free space, then try again.",
  symlink: "Edit the file yourself; orchestrate does not write through a symlink.",
  register_failed: "Run the client's own `mcp add` command shown in the message by hand.",

  // ---- the store ----
  store_unavailable: "Check the store path's permissions and free space, or set ORCHESTRATE_DB to another file; `orchestrate check` shows the store.",
  store_too_new: "Upgrade orchestrate (re-run install.sh, or rebuild it from a newer clone), or point ORCHESTRATE_DB at another file.",
  store_corrupt:
    "Move the damaged store file named in the message aside (with its -wal and -shm files) so orchestrate starts a new one, or set ORCHESTRATE_DB to another file.",
  store_foreign: "Remove store.path / database_path from the config to use orchestrate's own store, or point it at a new file.",

  // ---- where a call may run ----
  cwd_invalid: "Pass an absolute path to an existing directory.",
  cwd_outside_roots: "Use a directory inside ORCHESTRATE_ROOTS (or the config's roots), or add its parent there.",
  recursion_limit: "Do the work here instead of delegating again, or raise ORCHESTRATE_DEPTH / maxDepth deliberately.",

  // ---- routing ----
  tier_unconfigured: "Add the tier under tiers: in the config (orchestrate init), then restart the client.",
  no_candidates: "Run router_dry_run to see why each entry was skipped; wait for a cooldown, enable an agent, or allow the crossing.",

  // ---- how a delegate's run ended (route and consult) ----
  unavailable: "Run `orchestrate check` to see which CLIs are installed and signed in.",
  not_installed: "Install the CLI (or set command: to its absolute path); `orchestrate check` shows what was found.",
  auth_required: "Sign in with the CLI's own login command in a terminal, then ask again.",
  rate_limited: "Retry later, or ask another agent (consult never falls back on its own).",
  transport_error: "Check the network; if it persists, confirm the CLI's sign-in.",
  timeout: "Retry with a larger timeoutSec, or use background: true and job_wait for long tasks.",
  stalled: "The delegate went silent; retry, or raise the agent's limits.stallSec if its steps are long.",
  cancelled: "Nothing to do: the call was cancelled as asked; start it again if you still need it.",
  budget_exceeded: "Raise the agent's token/cost/turn limit, or narrow the task.",
  task_failed: "Read the attempt trace; the delegate's partial output, if any, is in text.",
  empty_answer: "The delegate ended without an answer; ask again, perhaps more specifically.",
  bad_output: "Ask again, perhaps more narrowly, or use another agent.",
  tree_changed: "The working tree was changed by the attempt; review it (git status / git diff) before retrying.",
  agent_failed: "Read the message; `orchestrate check` validates the CLI and its flags.",
  prompt_too_large: "Shorten the prompt, or route to a backend that reads its prompt from stdin.",

  // ---- consult ----
  host_unknown: "Register orchestrate with ORCHESTRATE_HOST_RUNTIME set to the runtime of the client that calls it.",
  host_mismatch: "Make host.runtime in the config agree with ORCHESTRATE_HOST_RUNTIME, or remove it.",
  no_eligible_agent: "Give an agent on another runtime a score for this capability (list_agents shows why each is excluded).",
  agent_not_eligible: "Pick an eligible agent (list_agents), or leave agent: out.",
  unknown_agent: "Use an agent id that list_agents shows.",
  unknown_consultation: "Start a new consultation without consultation_id.",
  session_target_mismatch: "Start a new consultation: a stored one stays pinned to its agent, runtime and model.",
  resume_unsupported: "Start a new consultation; this CLI cannot continue a session.",
  configured_model_unavailable: "Check that the CLI's account can use the configured model, or change the agent's model.",
  action_attempted: "Nothing it produced is returned. Ask again, or consult a different agent with agent:.",

  // ---- consult in the seeds' words (Orchestrator MCP and orchestrator-mcp share one closed set,
  //      ConsultErrorCode); mcp/tools/consult/seed-codes.ts maps orchestrate's codes to these for a
  //      seed's client. transport_error, timeout, invalid_request, session_target_mismatch and
  //      configured_model_unavailable are shared with the sets above ----
  agent_not_installed: "Install the agent's CLI (or set command: to its absolute path); `orchestrate check` shows what was found.",
  connection_required: "Sign in with the agent CLI's own login command in a terminal, then ask again.",
  agent_unavailable: "The agent could not answer now (rate-limited, refused or failed); ask again later or name another agent.",
  session_not_found: "Start a new consultation without consultation_id.",
  protocol_validation_failed:
    "The agent's reply broke the answer-only contract (no valid answer, an action, or past the web turn limit); nothing it produced is returned. Ask again, more narrowly.",
  web_search_unavailable: "Name an agent the config trusts with the web (web_search: true) on a CLI that can browse, or ask without source_mode web.",
  no_agent_available: "Give an agent on another runtime a score for this capability (list_agents shows why each is excluded).",

  // ---- reviews ----
  review_unconfigured: "Add a consult.review block (reviewers and/or deep_reviewers) to the config, then restart the client.",
  review_mode_unconfigured: "Use the mode consult.review configures, or add that mode's list (reviewers: one id; deep_reviewers: one to five).",
  reviewer_count: "Standard reviews take exactly one reviewer and deep reviews one to five: name that many distinct models.",
  no_eligible_reviewer:
    "Name reviewers on a runtime other than the host's (or set host.model and give them versioned models); the plan says why each was left out.",
  unknown_review: "Review ids come from the review tool's plan; review_list shows the stored ones.",
  review_wrong_state: "Call review_get to see where the review stands; this step does not apply to it now.",
  material_invalid: "Pass text, or absolute paths of readable files inside the roots with line ranges that exist.",
  material_too_large: "Send less material: excerpts of the files that matter rather than whole trees.",
  plan_changed: "The material changed after the plan (a file excerpt was edited): call review again and approve the new plan.",
  plan_unavailable: "The plan's material lives in the server process that made it, which no longer holds it: call review again.",
  host_findings_required: "In deep mode record your own findings first: call review_run again with host_findings (at least one).",
  review_declined: "Nothing was sent. Plan the review again if the person wants a different scope.",
  approval_failed: "The client could not put the plan to the person; nothing was sent. Plan the review again.",
  review_incomplete: "Call review_retry for the reviewers named (failed or unparseable), then finalize.",
  critical_finding_dropped:
    "Carry each critical finding named into combined_findings (severity critical, its id in sources); disagree through its disposition and reason, not by leaving it out.",
  disposition_reason_required: "Give a reason when rejecting or accepting the risk of a critical or important finding.",
  unknown_finding: "Cite finding ids review_get lists (F… from reviewers, H… from your host_findings).",

  // ---- ask: seed 002's closed set (orchestrator-mcp's ErrorCode), which its envelope speaks. Its
  //      other outcomes are the shared timeout, rate_limited, cancelled; services/ask/envelope.ts
  //      maps orchestrate's own words for the rest (auth_required → auth_failed, …) ----
  invalid_request:
    "Fix what the message names (capability — list_capabilities shows them —, prompt, context, max_output_tokens or response_schema) and ask again.",
  auth_failed:
    "Keys are read from the server's own environment (the MCP client's env block for this server), not your shell's: set the variable the config names, or check the key.",
  no_deployment:
    "Every deployment of this capability and its fallbacks failed recently and is cooling down: ask again after the time in the message, or add a deployment.",
  upstream_error:
    "The provider failed the request or stopped without an answer (a tool call, an empty or unspecified finish); the message says which. Check the deployment's model and base URL (orchestrate check), or ask again.",
  output_truncated: "The reply hit the token limit and is not returned: raise max_output_tokens, or ask for less.",
  content_filtered: "The provider filtered the reply; nothing is returned. Rephrase, or use a capability whose model allows it.",
  schema_validation_failed: "The reply did not satisfy response_schema after the repair turns; simplify the schema or ask a stronger capability.",

  // ---- workflows ----
  workflows_not_configured: "Add a consult.workflow block (and store_full_content: true) to the config; the workflow tools are offered only with one.",
  unknown_workflow: "Workflow ids come from workflow_start; workflow_status without an id lists them.",
  workflow_wrong_state:
    "Only an active workflow takes steps; workflow_status says where it stands (start a new one after completed, needs_attention or cancelled).",
  wrong_step: "Plan the step workflow_status names as next (a step's order is fixed: research, plan, brief, implement, apply, test, review, synthesize, fix).",
  review_unbound: "Bind reviewers in config: consult.workflow.bindings.review: {agents: [id, …]}; a review cannot be the host's.",
  workdir_dirty: "Commit or stash your changes first, or pass allow_dirty: true if the workflow should start from this tree.",
  workdir_not_git: "A workflow works in a git repository: run it in one (git init, commit) or pick another workdir.",
  mode_refused:
    "The message names which side said no: add the mode to the agent's execution_modes (operator), or bind an agent whose backend can be contained (backend) — patch works everywhere.",
  not_host_step: "This step is bound to an agent: run it with workflow_run_step.",
  not_delegated_step: "This step is the host's: do it yourself and record it with workflow_record_host_step.",
  step_declined: "The person declined the step; nothing ran. Plan it again (perhaps with other context) to ask again.",
  replan_declined: "The person declined the replan; every step keeps its routing. Call workflow_replan without a token to preview it again.",
  nested_repository:
    "Remove the nested .git from the kept worktree (its path is in the message) and copy the work out, or plan the step again with instructions not to create repositories.",
  containment_breach: "The agent changed your checkout: inspect it (git status) before anything else, and remove isolated_write from that agent.",
  worktree_failed: "Check the repository (git worktree list; git worktree prune) and the state directory's free space, then plan the step again.",
  no_patch: "The agent produced no diff: plan the step again with the source it must change in context.",
  apply_not_committed: "Apply the patch, commit it, and plan apply_patch again: the new commit is the only evidence it was applied.",
  test_report_inconsistent: "A pass needs exit code 0 and a fail a non-zero one: record what the command really returned.",
  review_not_finalized: "Finalize the step's review first (its synthesis goes through the review service), then record synthesize.",

  // ---- jobs and history ----
  job_not_found: "Job ids come from route/consult replies with a job field.",
  job_not_owned: "Cancel it from the client that started it (one orchestrate process per MCP client).",
  server_died: "The server that ran it exited; start the call again (its partial output is kept).",
  not_found: "It may already be deleted or pruned; `orchestrate history list` shows what is stored.",
  still_running: "Cancel it first (job_cancel), or wait for it to finish.",

  // ---- release tooling (build/): never seen by a server's caller ----
  command_failed: "Run the command in the message by hand to see its full output.",
  runtime_unavailable: "Install the toolchain named in the message (npm install brings Bun).",
  compile_failed: "Read the compiler's output above; fix the source and build again.",
  bad_target: "Use one of the targets the message lists.",
  bad_version: "Tag the release with a semantic version (vX.Y.Z).",
  missing_checksum: "Build every target first (npm run build:all) so SHA256SUMS lists them all.",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** The code's own "what to do next", for a failure that brought none. */
export function hintFor(code: ErrorCode): string {
  return ERROR_CODES[code];
}
