import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { MaterialInput } from "../services/review/material.ts";
import { EXIT, exitCodeFor, exitWith, failureLines, endCommand } from "./exit-codes.ts";

/**
 * `orchestrate review --goal G [--deep] FILE[:A-B]…`: a review from a shell. The plan is printed
 * (nothing sent), the person confirms at the terminal — the approval a human gives, recorded as
 * `terminal` — and the reviewers' findings are printed. Deep mode asks for the person's own findings
 * first. Without a terminal the plan is printed and nothing is sent; there is no flag to skip asking.
 */
export const reviewCommand = defineCommand({
  meta: { name: "review", description: "Plan a review of files by the configured reviewers, confirm it at the terminal, print the findings." },
  args: {
    goal: { type: "string", description: "What the review should judge (required, except with --retry)" },
    retry: { type: "string", description: "Ask the failed or unparseable reviewers of this review id again (--reviewers narrows it)" },
    deep: { type: "boolean", description: "Deep mode: several reviewers, and your own findings first" },
    reviewers: { type: "string", description: "Comma-separated agent ids instead of the configured reviewers" },
    context: { type: "string", description: "A file whose text goes along as context" },
    findings: { type: "string", description: "Deep mode: a file with your own findings, one per line: critical|important|minor: claim" },
    "send-as-is": { type: "boolean", description: "Send credential-shaped text unmasked (the plan shows where it is)" },
    ...configArg,
  },
  async run({ args }) {
    if (args.retry !== undefined) return retry(args.retry, args.reviewers, args.config);
    if (args.goal === undefined) return exitWith("Missing required argument: --goal\nSee: orchestrate review --help", EXIT.usage);
    const material = (args._ ?? []).map(excerpt);
    if (material.length === 0) return exitWith("Name the files to review: orchestrate review --goal '…' FILE[:START-END]…", EXIT.usage);
    const { createRuntime } = await import("../services/shared/runtime.ts");
    const rt = await createRuntime(process.env, args.config);
    if (!rt.ok) return exitWith(failureLines(rt.error), exitCodeFor(rt.error.code));
    const { runCliReview } = await import("./review-flow.ts");
    const code = await runCliReview(rt.value, {
      goal: args.goal,
      mode: args.deep ? "deep" : "standard",
      material,
      ...(args.context ? { context: readText(args.context) } : {}),
      ...(args.reviewers
        ? {
            reviewers: args.reviewers
              .split(",")
              .map((r) => r.trim())
              .filter(Boolean),
          }
        : {}),
      ...(args.findings ? { findingsText: readText(args.findings) } : {}),
      secrets: args["send-as-is"] ? "send_as_is" : "mask",
    });
    endCommand(code);
  },
});

async function retry(reviewId: string, reviewers: string | undefined, configPath: string | undefined): Promise<never> {
  const { createRuntime } = await import("../services/shared/runtime.ts");
  const rt = await createRuntime(process.env, configPath);
  if (!rt.ok) return exitWith(failureLines(rt.error), exitCodeFor(rt.error.code));
  const { retryCliReview } = await import("./review-flow.ts");
  endCommand(
    await retryCliReview(
      rt.value,
      reviewId,
      reviewers
        ? reviewers
            .split(",")
            .map((r) => r.trim())
            .filter(Boolean)
        : undefined,
    ),
  );
}

/** `path` or `path:start-end`, resolved against the current directory. */
function excerpt(arg: string): MaterialInput {
  const m = /^(.*):(\d+)-(\d+)$/.exec(arg);
  if (!m) return { path: resolve(arg) };
  return { path: resolve(m[1] ?? ""), start_line: Number(m[2]), end_line: Number(m[3]) };
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    return exitWith(`${path}: ${error instanceof Error ? error.message : String(error)}`, EXIT.usage);
  }
}
