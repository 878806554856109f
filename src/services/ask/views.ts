/**
 * list_capabilities (seed 002): what each capability is for, the deployments behind it, and where
 * it falls back. Sends nothing. Neither keys nor their variables' names nor base URLs are shown:
 * the calling model needs to choose a capability, not to learn the operator's endpoints.
 */
import type { AskStrategy } from "../../config/types.ts";
import type { Runtime } from "../shared/runtime.ts";
import { coolingUntil } from "./cooling.ts";
import { deploymentQuota } from "./quota.ts";

export interface CapabilityListing {
  capabilities: {
    name: string;
    description: string;
    strategy: AskStrategy;
    fallbacks: string[];
    deployments: { id: string; model: string; format: "openai" | "anthropic"; cooling_until: string | null; quota?: string }[];
  }[];
  limits: {
    request_timeout_s: number;
    max_prompt_chars: number;
    max_system_chars: number;
    max_context_chars: number;
    max_schema_chars: number;
    max_output_tokens: number;
    schema_repair_attempts: number;
  };
}

export function listCapabilities(rt: Runtime): CapabilityListing {
  const { ask } = rt.config;
  const now = rt.now();
  const capabilities = Object.values(ask.capabilities).map((c) => {
    const cooling = coolingUntil(rt, c.deployments, now);
    const quota = deploymentQuota(rt, c.deployments, now);
    const deployments = c.deployments.map((d) => {
      const until = cooling.get(d);
      const line = quota.get(d);
      return {
        id: d.id,
        model: d.model,
        format: d.endpoint.wire,
        cooling_until: until !== undefined ? new Date(until).toISOString() : null,
        ...(line ? { quota: line } : {}),
      };
    });
    return { name: c.name, description: c.description, strategy: c.strategy, fallbacks: c.fallbacks, deployments };
  });
  const l = ask.limits;
  return {
    capabilities,
    limits: {
      // The whole configured budget: an ask that outlives the client's ceiling continues as a job.
      request_timeout_s: l.requestTimeoutSec,
      max_prompt_chars: l.maxPromptChars,
      max_system_chars: l.maxSystemChars,
      max_context_chars: l.maxContextChars,
      max_schema_chars: l.maxSchemaChars,
      max_output_tokens: l.maxOutputTokens,
      schema_repair_attempts: l.schemaRepairAttempts,
    },
  };
}
