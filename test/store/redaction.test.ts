import { describe, expect, test } from "bun:test";
import { mustOpen, rawBytes, SECRETS, tmpStorePath } from "./tmp.ts";

const { anthropic, github } = SECRETS;
const leaky = `deploy with ANTHROPIC key ${anthropic} and token ${github} please`;

function expectClean(text: string | null | undefined): void {
  expect(text ?? "").not.toContain(anthropic);
  expect(text ?? "").not.toContain(github);
  // The distinctive tails must be gone too, not just the prefixes.
  expect(text ?? "").not.toContain(anthropic.slice(-30));
  expect(text ?? "").not.toContain(github.slice(-20));
}

describe("redaction before insert", () => {
  test("secrets never reach rows or file bytes (runs, turns, jobs)", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    const run = store.runs.startRun({ tool: "route", cwd: "/w", prompt: leaky });
    store.runs.addAttempt({
      runId: run,
      n: 1,
      agentId: "a",
      backend: "codex",
      provider: "openai",
      outcome: "auth",
      reason: `401 for ${anthropic}`,
      exitCode: 1,
      durationMs: 1,
      fellBack: true,
    });
    store.runs.finishRun(run, { status: "failed", errorCode: "task_failed", errorMessage: `stderr: ${github}`, answer: `here: ${anthropic}` });

    const c = store.consultations.create({ agentId: "g", backend: "gemini" });
    store.consultations.addTurn(c, {
      prompt: leaky,
      context: `ctx ${github}`,
      answer: { answer: `key ${anthropic}`, sources: [github] },
      errorMessage: github,
      modelVerified: "unverified",
      latencyMs: 1,
    });

    const job = store.jobs.create({ kind: "route", args: { prompt: leaky, nested: [github] }, ownerStartedAt: 1 });
    store.jobs.setProgress(job, `using ${github}`);
    // A secret split across two appends must still be caught whole.
    store.jobs.appendPartial(job, `log: ${anthropic.slice(0, 30)}`);
    store.jobs.appendPartial(job, `${anthropic.slice(30)} end\n`);
    store.jobs.finish(job, { status: "failed", result: { text: anthropic }, errorMessage: github });

    const r = store.runs.getRun(run);
    expect(r?.prompt).toContain("deploy with");
    for (const t of [r?.prompt, r?.errorMessage, r?.answer, r?.attempts[0]?.reason]) expectClean(t);
    const turn = store.consultations.get(c)?.turns[0];
    for (const t of [turn?.prompt, turn?.context, JSON.stringify(turn?.answer), turn?.errorMessage]) expectClean(t);
    const j = store.jobs.get(job);
    expect(j?.partialOutput).toContain("log: ");
    for (const t of [JSON.stringify(j?.args), j?.progress, j?.partialOutput, JSON.stringify(j?.result), j?.errorMessage]) expectClean(t);

    expectClean(rawBytes(path));
    store.close();
    expectClean(rawBytes(path));
  });

  test("fullContent false keeps shape, not text", () => {
    const path = tmpStorePath();
    const marker = "PURPLE-ELEPHANT-MARKER the secret plan";
    const store = mustOpen(path, { fullContent: false });
    const run = store.runs.startRun({ tool: "route", tier: "light", cwd: "/w/proj", prompt: marker });
    store.runs.finishRun(run, { status: "ok", servedBy: "a", answer: `${marker} answered` });
    const c = store.consultations.create({ agentId: "g", backend: "gemini" });
    store.consultations.addTurn(c, {
      prompt: marker,
      context: marker,
      answer: { answer: marker, assumptions: [marker] },
      modelVerified: "verified",
      latencyMs: 1,
    });
    const job = store.jobs.create({ kind: "route", args: { prompt: marker, tier: "light" }, ownerStartedAt: 1 });
    store.jobs.appendPartial(job, `${marker}\n`);
    store.jobs.finish(job, { status: "ok", result: { servedBy: "a", answer: marker } });

    const r = store.runs.getRun(run);
    expect(r).toMatchObject({ prompt: null, promptLength: marker.length, answer: null, tier: "light", cwd: "/w/proj", servedBy: "a" });
    expect(r?.promptSha256).toMatch(/^[0-9a-f]{64}$/);
    const turn = store.consultations.get(c)?.turns[0];
    expect(turn).toMatchObject({ prompt: null, context: null, answer: undefined, promptLength: marker.length });
    // The owning process may still show its own job's output and result; the file holds none.
    const other = mustOpen(path, { fullContent: false });
    const j = other.jobs.get(job);
    expect(j).toMatchObject({ partialOutput: null, args: { tier: "light" } });
    expect(JSON.stringify(j)).not.toContain("PURPLE-ELEPHANT");
    expect(store.jobs.get(job)?.result).toEqual({ servedBy: "a", answer: marker });
    other.close();
    store.close();
    expect(rawBytes(path)).not.toContain("PURPLE-ELEPHANT");
  });
});
