/**
 * consult's failures in the seeds' closed set. Orchestrator MCP and orchestrator-mcp answer consult
 * failures with their own ConsultErrorCode values (agent_not_installed, connection_required, …),
 * and a client written against them branches on those, so a seed's client (mcp/tools/names.ts
 * seedClient) gets them; everyone else keeps orchestrate's finer codes. The original code travels
 * in details.orchestrate_code, and the message and hint are unchanged.
 */
import type { ErrorCode } from "../../../errors.ts";
import type { Failure } from "../../../result.ts";
import type { ToolOutcome } from "../../outcome.ts";

const SEED_CODE: Partial<Record<ErrorCode, ErrorCode>> = {
  not_installed: "agent_not_installed",
  auth_required: "connection_required",
  unavailable: "agent_unavailable",
  rate_limited: "agent_unavailable",
  task_failed: "agent_unavailable",
  agent_failed: "agent_unavailable",
  resume_unsupported: "agent_unavailable",
  // The seeds fail a turn with no valid answer, an action event, or one past web_turn_limit alike.
  empty_answer: "protocol_validation_failed",
  bad_output: "protocol_validation_failed",
  action_attempted: "protocol_validation_failed",
  budget_exceeded: "protocol_validation_failed",
  stalled: "timeout",
  unknown_consultation: "session_not_found",
  // Only consult tools are mapped, so a missing record here is always a consultation.
  not_found: "session_not_found",
  no_eligible_agent: "no_agent_available",
  agent_not_eligible: "no_agent_available",
  host_unknown: "no_agent_available",
  invalid_arguments: "invalid_request",
  unknown_agent: "invalid_request",
  cwd_invalid: "invalid_request",
  cwd_outside_roots: "invalid_request",
  prompt_too_large: "invalid_request",
};

/** `web`: the call asked for web mode, where an ineligible agent is the seeds' web_search_unavailable. */
export function inSeedCodes(outcome: ToolOutcome, web: boolean): ToolOutcome {
  if (outcome.ok) return outcome;
  return { ...outcome, error: seedFailure(outcome.error, web) };
}

function seedFailure(failure: Failure, web: boolean): Failure {
  const code = web && failure.code === "agent_not_eligible" ? "web_search_unavailable" : SEED_CODE[failure.code];
  if (!code) return failure;
  return { ...failure, code, details: { ...failure.details, orchestrate_code: failure.code } };
}
