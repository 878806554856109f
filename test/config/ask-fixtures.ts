import { join } from "node:path";
/** Seed 002's config.yaml examples, as its README prints them. */

/** The Configuration section's file, byte for byte. */
export const SEED_002_CONFIG_YAML = `capabilities:
  coding: "Writing, refactoring, reviewing, and debugging code."
  fast: "Cheap, low-latency answers. Classification, extraction, short replies."

model_list:
  - model_name: coding
    litellm_params:
      model: anthropic/claude-sonnet-4-5
      api_key: os.environ/ANTHROPIC_API_KEY

  - model_name: fast
    litellm_params:
      model: anthropic/claude-haiku-4-5-20251001
      api_key: os.environ/ANTHROPIC_API_KEY

router_settings:
  num_retries: 2
  cooldown_time: 60
  fallbacks:
    - coding: [fast]
`;

/** How It Works: two deployments behind one capability (the seed's snippet, with its capabilities declared). */
export const SEED_002_TWO_DEPLOYMENTS = `capabilities:
  coding: "Writing code."

model_list:
  - model_name: coding                  # capability, not a model
    litellm_params:
      model: anthropic/claude-sonnet-4-5
      api_key: os.environ/ANTHROPIC_API_KEY

  - model_name: coding                  # same capability, your own box
    litellm_params:
      model: openai/qwen-coder
      api_base: http://vllm.internal:8000/v1
      api_key: os.environ/LOCAL_VLLM_KEY
`;

/** The seed, copied into the repo (test/fixtures/seeds): tests read nothing outside it. */
export const SEED_002_PATH = join(import.meta.dir, "..", "fixtures", "seeds", "002_6144608932b35f49.txt");

/** The fields of seed 002's ask envelope, sorted: exactly these, none renamed (extras are orchestrate's). */
export const ENVELOPE_KEYS = [
  "ok",
  "content",
  "data",
  "insufficient_context",
  "capability_requested",
  "model_used",
  "fallback_used",
  "finish_reason",
  "usage",
  "latency_ms",
  "error",
].sort();
