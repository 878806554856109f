import { defineCommand } from "citty";
import { configArg } from "./config-arg.ts";
import { errorText } from "../result.ts";
import { exitWith, failureLines, endCommand } from "./exit-codes.ts";
import { wholeNumber } from "./numbers.ts";
import type { Store } from "../store/db.ts";
import { stdout } from "../safety/egress.ts";

/**
 * `orchestrate history list|show <id>|delete <id>|prune --older-than <days> [--yes]`: the history
 * verbs from a shell. Deleting removes orchestrate's own rows only; the CLIs keep their sessions.
 */

async function withStore(configPath: string | undefined, fn: (store: Store) => Promise<void> | void): Promise<never> {
  const { createRuntime } = await import("../services/shared/runtime.ts");
  const rt = await createRuntime(process.env, configPath);
  if (!rt.ok) return exitWith(failureLines(rt.error));
  try {
    await fn(rt.value.store);
  } finally {
    rt.value.store.close();
  }
  endCommand(0);
}

const list = defineCommand({
  meta: { name: "list", description: "Recent consultations, runs, reviews and asks, newest first." },
  args: { ...configArg, limit: { type: "string", description: "How many of each (default 20)" } },
  run: ({ args }) =>
    withStore(args.config, async (store) => {
      const { formatList } = await import("./history-format.ts");
      const limit = args.limit === undefined ? 20 : wholeNumber(args.limit, 1, 100_000);
      if (limit === undefined) exitWith("--limit takes a whole number of rows, e.g. --limit 50");
      stdout.write(
        formatList(store.consultations.list({ limit }), store.runs.listRuns({ limit }), store.reviews.list({ limit }), store.browse.asks({ limit }).rows),
      );
    }),
});

const show = defineCommand({
  meta: { name: "show", description: "One consultation, run, review or ask, with every turn, attempt, finding or leg." },
  args: { ...configArg, id: { type: "positional", required: true, description: "Consultation, run, review or ask id" } },
  run: ({ args }) =>
    withStore(args.config, async (store) => {
      const { formatAskRecord, formatConsultationRecord, formatRunRecord } = await import("./history-format.ts");
      const consultation = store.consultations.get(args.id);
      if (consultation) return void stdout.write(formatConsultationRecord(consultation));
      const run = store.runs.getRun(args.id);
      if (run) return void stdout.write(formatRunRecord(run));
      const asked = store.asks.get(args.id);
      if (asked) return void stdout.write(formatAskRecord(asked));
      const review = store.reviews.get(args.id);
      if (review) {
        const [{ reviewView }, { formatReview }] = await Promise.all([import("../services/review/views.ts"), import("../mcp/tools/review/format.ts")]);
        return void stdout.write(`${formatReview({ ok: true, ...reviewView(review) })}
`);
      }
      exitWith(`Nothing with id "${args.id}" is stored here. \`orchestrate history list\` shows what is.`);
    }),
});

const del = defineCommand({
  meta: { name: "delete", description: "Delete one consultation, run, review, ask or job from orchestrate's local history." },
  args: { ...configArg, id: { type: "positional", required: true, description: "Consultation, run, review, ask or job id" } },
  run: ({ args }) =>
    withStore(args.config, async (store) => {
      const { deleteAny, describeCounts } = await import("../services/history/index.ts");
      const out = deleteAny(store, args.id);
      if (!out.ok) exitWith(errorText(out.error));
      stdout.write(`Deleted ${describeCounts(out.value.deleted)}.\n${out.value.note}\n`);
    }),
});

const prune = defineCommand({
  meta: { name: "prune", description: "Delete consultations, runs, reviews, asks and jobs older than N days (confirms first on a terminal)." },
  args: {
    ...configArg,
    "older-than": { type: "string", required: true, description: "Age in days" },
    yes: { type: "boolean", description: "Do not ask (required when not on a terminal)" },
  },
  run: ({ args }) =>
    withStore(args.config, async (store) => {
      const days = wholeNumber(args["older-than"], 0, 1_000_000);
      if (days === undefined) exitWith("--older-than takes a whole number of days, e.g. --older-than 30");
      const { countKind, cutoffFor, deleteKind, describeCounts, total } = await import("../services/history/index.ts");
      const cutoff = cutoffFor(days, Date.now());
      const counts = countKind(store, "all", cutoff);
      if (total(counts) === 0) return void stdout.write(`Nothing older than ${days} day(s) is stored.\n`);
      if (!args.yes && !(await confirmed(`Delete ${describeCounts(counts)} older than ${days} day(s)?`))) exitWith("Nothing was deleted.");
      const report = deleteKind(store, "all", cutoff);
      stdout.write(`Deleted ${describeCounts(report.deleted)}.\n${report.note}\n`);
    }),
});

/** On a terminal, ask; anywhere else refuse: a script must say --yes to delete. */
async function confirmed(question: string): Promise<boolean> {
  const { terminalProblem, confirm, Cancelled } = await import("../setup/prompts.ts");
  if (terminalProblem()) exitWith("orchestrate history prune: not on a terminal, so it cannot ask; pass --yes to delete without asking.");
  try {
    return await confirm(question, false);
  } catch (error) {
    if (error instanceof Cancelled) return false;
    throw error;
  }
}

export const historyCommand = defineCommand({
  meta: { name: "history", description: "List, show, delete or prune orchestrate's stored consultations, runs, reviews and asks (local rows only)." },
  subCommands: { list, show, delete: del, prune },
});
