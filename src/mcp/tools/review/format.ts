/**
 * The review tools' readable text blocks. A review is read in the shape its output schema declares,
 * so one read back from the job store formats like a fresh one.
 */
import type { reviewListOutput, reviewOutput, reviewPlanOutput } from "./schema.ts";
import { estimateLine, totalLine } from "../../../services/shared/price.ts";

export type ReviewOutput = typeof reviewOutput.infer;
type PlanOutput = typeof reviewPlanOutput.infer;

/** What the plan says, as the person reads it (the MCP reply and `orchestrate review` alike). */
export function describePlan(p: PlanOutput): string[] {
  const lines = [`Review plan ${p.review_id} (${p.mode}) — nothing has been sent.`];
  lines.push(`Reviewers: ${(p.reviewers ?? []).map((r) => `${r.id} (${r.backend}${r.model ? ` · ${r.model}` : ""})`).join(", ")}`);
  for (const e of p.excluded ?? []) lines.push(`  left out: ${e.id} — ${e.why}`);
  for (const m of p.merged ?? []) lines.push(`  left out: ${m.id} — the same model as ${m.same_as}`);
  const total = p.material?.total;
  if (total) lines.push(`Material: ${total.items} item(s), ${total.chars} characters, ${total.lines} lines (~${total.approx_tokens} tokens per reviewer)`);
  for (const item of p.material?.items ?? []) lines.push(`  - ${item.label}: ${item.chars} chars, ${item.lines} lines`);
  if (p.web)
    lines.push(
      `Web access: ${p.web.requested ? "requested" : "not requested"}, ${p.web.granted ? "granted" : "not granted"}${p.web.note ? ` (${p.web.note})` : ""}`,
    );
  for (const w of p.web?.reviewers ?? []) lines.push(`  web ${w.granted ? "granted" : "not granted"}: ${w.id}${w.why ? ` — ${w.why}` : ""}`);
  if (p.requests) lines.push(`Requests: ${p.requests.reviewers} (at most ${p.requests.at_most} with repair turns)`);
  if (p.cost) lines.push(...costLines(p.cost));
  const secrets = p.secrets ?? [];
  lines.push(
    secrets.length === 0
      ? "Credential-shaped text: none found."
      : `Credential-shaped text: ${secrets.length} found — masked unless review_run says secrets: "send_as_is":`,
  );
  for (const s of secrets) lines.push(`  - ${s.where} line ${s.line}, column ${s.column}: ${s.kind}`);
  return lines;
}

/** The estimate per reviewer and the plan's total, their sum (unknown if any is). */
function costLines(cost: NonNullable<PlanOutput["cost"]>): string[] {
  return [`Estimated cost, first request per reviewer: ${totalLine(cost.total)}`, ...cost.reviewers.map((r) => `  ${r.id}: ${estimateLine(r)}`)];
}

export function formatPlan(p: PlanOutput): string {
  const lines = describePlan(p);
  lines.push(
    "",
    p.approval === "elicitation"
      ? "Next: call review_run with review_id and token; your client will ask the person to approve the plan."
      : `Next: show this plan to the person. Only once they agree, call review_run with review_id and token (once, valid until ${p.expires_at}).`,
  );
  if (p.mode === "deep") lines.push("Deep mode: record your own findings first — review_run needs host_findings.");
  lines.push(`Token: ${p.token}`);
  return lines.join("\n");
}

export function formatReview(r: ReviewOutput): string {
  const lines = [
    `Review ${r.review_id} (${r.mode}) · ${r.status}${r.approval ? ` · approved by ${r.approval === "token" ? "one-time token" : r.approval}` : ""}`,
  ];
  if (r.store_notice) lines.push(`Notice: ${r.store_notice}`);
  for (const v of r.reviewers ?? []) {
    const head = `- ${v.id} (${v.backend}${v.model ? ` · ${v.model}` : ""}): ${v.status}${v.error ? ` — ${v.error.code}: ${v.error.message}` : ""}`;
    lines.push(v.summary ? `${head}\n    ${v.summary}` : head);
    if (v.reply !== undefined && v.status === "unparseable") lines.push(`    unparseable reply (kept): ${v.reply.slice(0, 500)}`);
  }
  const findings = r.findings ?? [];
  if (findings.length > 0) lines.push("", "Findings:");
  for (const f of findings) {
    const who = f.source === "host" ? "host" : (f.reviewer ?? "?");
    lines.push(
      `  ${f.id} [${f.severity}] ${who}${f.location ? ` · ${f.location}` : ""}: ${f.claim ?? "(not stored)"}${f.disposition !== "open" ? ` — ${f.disposition}${f.reason ? `: ${f.reason}` : ""}` : ""}`,
    );
    if (f.evidence) lines.push(`      evidence: ${f.evidence}`);
  }
  if (r.not_carried?.length) lines.push("", `Not carried into the synthesis: ${r.not_carried.join(", ")}`);
  if (r.next) lines.push("", `Next: ${r.next}`);
  return lines.join("\n");
}

export function formatReviewList(l: typeof reviewListOutput.infer): string {
  const reviews = l.reviews ?? [];
  if (reviews.length === 0) return "No reviews are stored.";
  return reviews
    .map(
      (r) =>
        `- ${r.id} · ${r.mode} · ${r.status} · ${r.reviewers.join(", ")} · ${r.findings.critical} critical, ${r.findings.important} important, ${r.findings.minor} minor · ${new Date(r.updatedAt).toISOString()}`,
    )
    .join("\n");
}
