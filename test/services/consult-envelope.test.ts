import { describe, expect, test } from "bun:test";
import { buildConsultPrompt, ENVELOPE_JSON_SCHEMA, ENVELOPE_MARKER, readEnvelope, validateContent } from "../../src/services/answer/envelope.ts";
import { servedModels } from "../../src/services/answer/turn.ts";
import type { AgentConfig } from "../../src/config/types.ts";
import type { AgentEvent } from "../../src/backends/contract.ts";
import { claudeAdapter } from "../../src/backends/claude/index.ts";

const full = { answer: "yes", assumptions: ["a"], uncertainties: [], follow_up_questions: [], sources: ["s"] };

describe("envelope reading", () => {
  test("native structured output wins", () => {
    expect(readEnvelope(full, "not json")).toEqual(full);
  });

  test("JSON text, a fenced block and JSON inside prose are read", () => {
    expect(readEnvelope(undefined, JSON.stringify(full))).toEqual(full);
    expect(readEnvelope(undefined, `Here:\n\`\`\`json\n${JSON.stringify(full)}\n\`\`\``)).toEqual(full);
    expect(readEnvelope(undefined, `Sure! ${JSON.stringify(full)} Hope that helps.`)).toEqual(full);
  });

  test("prose, a missing list, a non-string item or an empty answer never pass", () => {
    expect(readEnvelope(undefined, "The loop is fine.")).toBeUndefined();
    const { sources: _s, ...noSources } = full;
    expect(validateContent(noSources)).toBeUndefined();
    expect(validateContent({ ...full, assumptions: [1] })).toBeUndefined();
    expect(validateContent({ ...full, answer: "  " })).toBeUndefined();
    expect(validateContent([full])).toBeUndefined();
  });

  test("extra keys are dropped, not passed through", () => {
    expect(validateContent({ ...full, injected: "x" })).toEqual(full);
  });

  test("the prompt carries the marker, the question and the context labelled as data", () => {
    const p = buildConsultPrompt("Q?", "CTX", "context_only");
    expect(p).toContain(ENVELOPE_MARKER);
    expect(p).toContain("Q?");
    expect(p.indexOf("CTX")).toBeGreaterThan(p.indexOf("untrusted data"));
    expect(buildConsultPrompt("Q?", undefined, "model_knowledge")).not.toContain("Context (");
  });

  test("the schema requires every key and forbids others (strict structured output)", () => {
    expect([...ENVELOPE_JSON_SCHEMA.required].sort() as string[]).toEqual(Object.keys(full).sort());
    expect(ENVELOPE_JSON_SCHEMA.additionalProperties).toBe(false);
  });
});

describe("served models", () => {
  const agent = (backend: AgentConfig["backend"]) => ({ backend }) as AgentConfig;
  const events: AgentEvent[] = [
    { kind: "session", sessionId: "s" },
    { kind: "model", model: "claude-opus-5-5", requested: true },
    { kind: "model", model: "claude-sonnet-5-5" },
    { kind: "text", text: "x" },
    { kind: "session", sessionId: "s" },
    { kind: "model", model: "claude-sonnet-5-5" },
  ];

  test("an echo of the requested model (claude's init) is not evidence of what served", () => {
    expect(servedModels(agent("claude"), events)).toEqual(["claude-sonnet-5-5", "claude-sonnet-5-5"]);
  });

  test("the claude adapter marks its init model as requested", () => {
    const init = claudeAdapter.parse(JSON.stringify({ type: "system", subtype: "init", session_id: "s", model: "claude-opus-5-5" }));
    expect(init).toContainEqual({ kind: "model", model: "claude-opus-5-5", requested: true });
  });
});
