/** The init tools' handlers, typed by their schemas: call setup/, shape the reply. Never throw. */
import type { ToolOutcome } from "../../outcome.ts";
import { initApply as stageProposal, initPreview as previewProposal, initStatus as setupStatus } from "../../../setup/conversational.ts";
import { formatRisks } from "../../../setup/risks.ts";
import type { Failure } from "../../../result.ts";
import type { initApplyInput, initPreviewInput, initStatusInput } from "./schema.ts";

function errorsOf(error: Failure): Record<string, unknown> {
  const errors = error.details?.errors;
  return Array.isArray(errors) ? { errors: errors.map(String) } : {};
}

/** setup/ reads files and runs probes; whatever it throws becomes an answer, not a crash. */
async function guarded(fn: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await fn();
  } catch (error) {
    return {
      ok: false,
      error: { code: "internal_error", message: error instanceof Error ? error.message : String(error), hint: "run `orchestrate check` in a terminal" },
    };
  }
}

export function initStatus(_input: typeof initStatusInput.infer): Promise<ToolOutcome> {
  return guarded(async () => {
    const status = await setupStatus(process.env);
    const lines = status.backends.map(
      (b) =>
        `${b.backend}: ${b.installed ? `v${b.version ?? "?"} · ${b.readiness}${b.missingFlags.length ? ` · missing ${b.missingFlags.join(", ")}` : ""}` : "not installed"}`,
    );
    const models = Object.entries(status.models).map(([b, m]) => `${b} lists (unverified): ${m.length ? m.join(", ") : "nothing — ask the person for an id"}`);
    const tiers = Object.entries(status.tiers).map(([t, on]) => `${t}: ${on ? "configured" : "unconfigured"}`);
    return {
      ok: true,
      data: { ...status },
      text: [
        ...lines,
        ...models,
        ...tiers,
        `config ${status.config.exists ? (status.config.valid ? "valid" : "INVALID") : "absent"}${status.config.pendingExists ? "; a staged config awaits `orchestrate accept-pending`" : ""}`,
      ].join("\n"),
    };
  });
}

export function initPreview(input: typeof initPreviewInput.infer): Promise<ToolOutcome> {
  return guarded(async () => {
    const preview = await previewProposal(input.spec, process.env);
    if (!preview.ok) return { ok: false, error: preview.error, data: errorsOf(preview.error) };
    // The masked diff: the current file's env values and credentials are not the model's to read.
    const { maskedDiff: diff, risks } = preview.value;
    return { ok: true, data: { diff, risks }, text: `Nothing was written.\n${diff}\n${formatRisks(risks)}` };
  });
}

export function initApply(input: typeof initApplyInput.infer): Promise<ToolOutcome> {
  return guarded(async () => {
    const applied = await stageProposal(input.spec, process.env);
    if (!applied.ok) return { ok: false, error: applied.error, data: errorsOf(applied.error) };
    const { proposal, staged } = applied.value;
    const next =
      "Ask the person to run `orchestrate accept-pending` in a terminal: it shows this diff and these risks and promotes the file only if they confirm.";
    return {
      ok: true,
      data: { staged, diff: proposal.maskedDiff, risks: proposal.risks, next },
      text: `Staged ${staged} (the live config is unchanged).\n${proposal.maskedDiff}\n${formatRisks(proposal.risks)}${next}`,
    };
  });
}
