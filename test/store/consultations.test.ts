import { describe, expect, test } from "bun:test";
import { mustOpen, tmpStorePath } from "./tmp.ts";

describe("consultations", () => {
  test("create, add turns (numbered), set native session, get with turns", () => {
    const store = mustOpen(tmpStorePath());
    const id = store.consultations.create({ agentId: "gemini-pro", backend: "gemini", model: "gemini-2.5-pro", hostRuntime: "claude", now: 10 });
    const envelope = { answer: "use a mutex", assumptions: [], uncertainties: ["load"], follow_up_questions: [], sources: [] };
    expect(
      store.consultations.addTurn(id, {
        prompt: "how?",
        context: "ctx",
        answer: envelope,
        modelReported: "gemini-2.5-pro",
        modelVerified: "verified",
        usage: { inputTokens: 3 },
        latencyMs: 40,
        now: 20,
      }),
    ).toBe(1);
    expect(store.consultations.setNativeSession(id, "native-42", 25)).toBe(true);
    expect(
      store.consultations.addTurn(id, {
        prompt: "and?",
        errorCode: "configured_model_unavailable",
        errorMessage: "got gemini-2.5-flash",
        modelReported: "gemini-2.5-flash",
        modelVerified: "mismatch",
        latencyMs: 5,
        now: 30,
      }),
    ).toBe(2);

    const got = store.consultations.get(id);
    expect(got).toMatchObject({
      id,
      agentId: "gemini-pro",
      backend: "gemini",
      model: "gemini-2.5-pro",
      hostRuntime: "claude",
      nativeSessionId: "native-42",
      status: "open",
      createdAt: 10,
      updatedAt: 30,
    });
    expect(got?.turns.map((t) => [t.n, t.prompt, t.modelVerified, t.errorCode])).toEqual([
      [1, "how?", "verified", null],
      [2, "and?", "mismatch", "configured_model_unavailable"],
    ]);
    expect(got?.turns[0]?.answer).toEqual(envelope);
    expect(got?.turns[0]?.context).toBe("ctx");
    expect(store.usage.summary().map((s) => [s.agentId, s.calls, s.inputTokens])).toEqual([["gemini-pro", 2, 3]]);
    expect(store.consultations.setStatus(id, "closed")).toBe(true);
    expect(store.consultations.get(id)?.status).toBe("closed");
    store.close();
  });

  test("a turn on an unknown consultation throws and writes nothing", () => {
    const store = mustOpen(tmpStorePath());
    expect(() => store.consultations.addTurn("missing", { prompt: "x", modelVerified: "unverified", latencyMs: 1 })).toThrow();
    expect(store.usage.summary()).toEqual([]);
    expect(store.consultations.get("missing")).toBeUndefined();
    store.close();
  });
});
