/**
 * The import rules of ../shared/style.md's revised layout, checked by `npm run deps` and by .ci/run.
 *
 * Layers, top to bottom (each imports only what is below it):
 *
 *   main.ts → cli/ → mcp/ → setup/ → doctor/ → services/ → runner/ (→ runner/transports/)
 *             cli/ → dashboard/ → doctor/, services/, store/, config/ (a second front end, beside mcp/)
 *                                                  ↘ store/   ↘ routing/
 *   runner/ → process/, git/, safety/, config/, backends/
 *   store/  → safety/, config/ (types), backends/ (types)
 *   config/ → backends/ (the registry names the backends a config may use)
 *   backends/ → nothing outside src/backends/
 *   leaves: log.ts, result.ts, errors.ts, version.ts, lifetime.ts → nothing in src/ but each other
 *
 * Type-only imports count: a type that crosses a layer upwards is a design dependency all the same,
 * and `import type` circles are circles. Lazy `await import()` counts too: lazy is about start-up
 * time, not about which way a layer may look.
 *
 * Each rule's comment is the sentence of the layout it keeps; `npm run deps` prints it under each violation.
 */

/** Folders (and files) under src/, as path regexes. */
const up = {
  cli: "^src/(cli/|main\\.ts$)",
  mcp: "^src/mcp/",
  setup: "^src/setup/",
  dashboard: "^src/dashboard/",
  doctor: "^src/doctor/",
  services: "^src/services/",
  runner: "^src/runner/",
  store: "^src/store/",
  routing: "^src/routing/",
  git: "^src/git/",
  process: "^src/process/",
  safety: "^src/safety/",
  config: "^src/config/",
  backends: "^src/backends/",
};
const any = (...names) => names.map((n) => up[n]).join("|");

/** Node/Bun modules that touch the disk, spawn, or talk to the network. */
const IO_CORE = "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|worker_threads|cluster)$|^bun:sqlite$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ── whole graph ────────────────────────────────────────────────────────────────────────────
    {
      name: "no-circular",
      severity: "error",
      comment:
        "No import circles anywhere, type-only and lazy imports included: a circle means two modules are one " +
        "design split across files (the old services/jobs ⇄ services/runtime and setup ⇄ doctor). " +
        "Give the shared part its own home below both.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "no-circular-folders",
      severity: "error",
      comment:
        "No circles between folders either: when a → b and b → a by different files, the two folders are " +
        "one layer in two places (setup ⇄ doctor was one). Move what both need to the lower one.",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "Every import resolves: an import the checker cannot follow is an edge no other rule can judge " +
        "(usually a file that moved without its importers).",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },

    // ── the application layers, top down ──────────────────────────────────────────────────────
    {
      name: "cli-is-the-top",
      severity: "error",
      comment:
        "cli/ holds thin commands and sits on top: only main.ts imports it. mcp/ never imports cli/ (the server " +
        "is one front end, the commands another, both over services/), and nothing below reaches up into a command.",
      from: { path: "^src/", pathNot: up.cli },
      to: { path: up.cli },
    },
    {
      name: "dashboard-only-from-cli",
      severity: "error",
      comment:
        "dashboard/ is loaded only by `orchestrate dashboard` (cli/dashboard.ts, lazily): the MCP server never " +
        "imports it, so serving MCP pays nothing for it, and nothing below a front end reaches up into it.",
      from: { path: "^src/", pathNot: [up.cli, up.dashboard].join("|") },
      to: { path: up.dashboard },
    },
    {
      name: "dashboard-is-a-front-end",
      severity: "error",
      comment:
        "dashboard/ is a front end over services/, store/ (read-only), doctor/ and config/: it never imports mcp/, " +
        "cli/ or setup/, and never runs an attempt (no runner/, process/, git/) — it shows, it does not send.",
      from: { path: up.dashboard },
      to: { path: any("mcp", "setup", "runner", "process", "git") },
    },
    {
      name: "setup-below-mcp",
      severity: "error",
      comment:
        "setup/ (the wizard, init proposals, registration) is used by `orchestrate init` and by the init_* tools; " +
        "it never imports mcp/ (or cli/) — both front ends call it, it calls neither.",
      from: { path: up.setup },
      to: { path: any("mcp") },
    },
    {
      name: "doctor-below-setup",
      severity: "error",
      comment:
        "doctor/ finds and judges each CLI (detection, checks, their report); the wizard reads its findings, " +
        "so setup/ → doctor/ and never the reverse (this was the setup ⇄ doctor circle).",
      from: { path: up.doctor },
      to: { path: any("setup", "mcp") },
    },
    {
      name: "services-not-to-front-ends",
      severity: "error",
      comment:
        "services/ is the only layer that composes, and it composes downward: it never imports mcp/ (or cli/) — " +
        "a route call that enters services/ does not come back to mcp/ — nor setup/ or doctor/.",
      from: { path: up.services },
      to: { path: any("mcp", "setup", "doctor") },
    },
    {
      name: "features-meet-at-their-entry",
      severity: "error",
      comment:
        "Each folder under services/ is one feature (route, consult, review, workflow, ask, history, smoke, " +
        "dashboard, jobs). A feature reaches another only through that feature's index.ts; what several need " +
        "lives in the named shared folders services/shared/ (runtime, jobs engine, cooldowns, tokens) and " +
        "services/answer/ (the answer-only turn and its reply contract). docs/architecture.md has the map.",
      from: { path: "^src/services/([^/]+)/" },
      to: {
        path: "^src/services/[^/]+/",
        pathNot: ["^src/services/$1/", "^src/services/(shared|answer)/", "^src/services/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "shared-folders-are-below-features",
      severity: "error",
      comment:
        "services/shared/ and services/answer/ are below every feature: they never import a feature folder, " +
        "so a feature can use them without a circle.",
      from: { path: "^src/services/(shared|answer)/" },
      to: { path: "^src/services/(?!shared/|answer/)[^/]+/" },
    },
    {
      name: "services-are-in-folders",
      severity: "error",
      comment: "services/ holds feature folders only; a flat file there is a feature without a home.",
      from: { path: "^src/" },
      to: { path: "^src/services/[^/]+\\.ts$" },
    },
    {
      name: "runner-not-to-services",
      severity: "error",
      comment:
        "runner/ is one attempt — prepare → stream → classify over a transport; it never imports services/, " +
        "mcp/, cli/, setup/ or doctor/, and leaves recording the outcome to services/ (no store/).",
      from: { path: up.runner },
      to: { path: any("services", "mcp", "setup", "doctor", "store") },
    },
    {
      name: "routing-is-pure",
      severity: "error",
      comment:
        "routing/ is pure planning (tiers, consult scores, budget, cooldown, fallback verdict): no disk, no " +
        "processes, no database, and nothing that does them — not process/, git/, store/, safety/, runner/, " +
        "services/ or a front end. It reads config types and backend traits only.",
      from: { path: up.routing },
      to: {
        path: [IO_CORE, any("process", "git", "store", "safety", "runner", "services", "setup", "doctor", "mcp")].join("|"),
      },
    },
    {
      name: "store-below-services",
      severity: "error",
      comment:
        "store/ persists what services/ decided (runs, usage, consultations, jobs, cooldowns); it reads config " +
        "and backend types and redacts through safety/, and imports nothing that runs or plans an attempt.",
      from: { path: up.store },
      to: { path: any("services", "runner", "routing", "process", "git", "setup", "doctor", "mcp") },
    },
    {
      name: "only-store-opens-sqlite",
      severity: "error",
      comment: "store/ is the only importer of bun:sqlite; everything else asks store/ (type-only imports included).",
      from: { path: "^src/", pathNot: up.store },
      to: { path: "^bun:sqlite$" },
    },

    // ── below the runner ───────────────────────────────────────────────────────────────────────
    {
      name: "git-on-process",
      severity: "error",
      comment:
        "git/ runs git through process/ (registered, bounded output) and knows nothing above it: " +
        "only process/ and the leaves.",
      from: { path: up.git },
      to: { path: "^src/", pathNot: "^src/(git/|process/|log\\.ts$|result\\.ts$|errors\\.ts$)" },
    },
    {
      name: "process-is-the-floor",
      severity: "error",
      comment:
        "process/ (spawn, process groups, kill, capture, resolve) is the floor of the I/O stack: it imports " +
        "only the leaves — and the recursion guard's one definition (safety/depth.ts), which every child " +
        "environment it builds must carry — so every layer above can use it and none of them is pulled in.",
      from: { path: up.process },
      to: { path: "^src/", pathNot: "^src/(process/|safety/depth\\.ts$|log\\.ts$|result\\.ts$|errors\\.ts$)" },
    },
    {
      name: "delegates-start-in-a-transport",
      severity: "error",
      comment:
        "A process is started only by process/ itself (probes through capture.ts), git/ (git commands) and " +
        "runner/transports/ (delegates). Anything else that spawned would skip the attempt's checks — depth, " +
        "readiness, fingerprint — so it may not import the spawner (docs/design.md, one place per safety rule).",
      from: { path: "^src/", pathNot: "^src/(process/|git/|runner/transports/)" },
      to: { path: "^src/process/spawn\\.ts$" },
    },
    {
      name: "the-attempt-owns-the-transports",
      severity: "error",
      comment:
        "A delegate's transport is driven only by runner/attempt.ts (through prepare and stream), which checks " +
        "the recursion depth before anything starts; no service may open a transport around it. The HTTP " +
        "channel that ask uses sends a request, not a delegate, and is exempt; so is orchestrate check's ACP " +
        "handshake (runner/transports/acp-probe.ts), which checks the depth the same way and sends no prompt.",
      from: { path: "^src/", pathNot: "^src/runner/(attempt|prepare|stream|classify|guards)\\.ts$|^src/runner/transports/" },
      to: { path: "^src/runner/transports/", pathNot: "^src/runner/transports/(types|http|acp-probe)\\.ts$" },
    },
    {
      name: "safety-is-a-leaf",
      severity: "error",
      comment:
        "safety/ (redaction, roots, depth) is asked by store/, runner/ and services/; it imports only the leaves, " +
        "so a redaction rule can be used from anywhere without a circle.",
      from: { path: up.safety },
      to: { path: "^src/", pathNot: "^src/(safety/|log\\.ts$|result\\.ts$|errors\\.ts$)" },
    },
    {
      name: "config-above-backends-only",
      severity: "error",
      comment:
        "config/ (load, parse, validate, resolve) sits just above backends/: it reads the registry to know which " +
        "backends a config may name, and otherwise only the leaves and safety/ — never a layer that uses config.",
      from: { path: up.config },
      to: { path: "^src/", pathNot: "^src/(config/|backends/|safety/|log\\.ts$|result\\.ts$|errors\\.ts$|version\\.ts$)" },
    },

    // ── backends ───────────────────────────────────────────────────────────────────────────────
    {
      name: "backends-import-nothing-above",
      severity: "error",
      comment:
        "backends/ is pure data + pure functions at the bottom: it never imports anything outside src/backends/ " +
        "(the runner, services and setup read backends, not the other way).",
      from: { path: up.backends },
      to: { path: "^src/", pathNot: up.backends },
    },
    {
      name: "backend-folder-is-self-contained",
      severity: "error",
      comment:
        "A backend folder src/backends/<id>/ imports only backends/contract.ts, events.ts, fold.ts and its own " +
        "files: never another backend, never the registry (index.ts).",
      from: { path: "^src/backends/([^/]+)/" },
      to: { path: "^src/", pathNot: ["^src/backends/(contract|events|fold)\\.ts$", "^src/backends/$1/"] },
    },
    {
      name: "backends-do-no-io",
      severity: "error",
      comment:
        "A backend describes a CLI (argv, parse, classify, probes as data); it never touches the disk, spawns or " +
        "opens the database itself — runner/ and process/ do that with what the backend returns.",
      from: { path: up.backends },
      to: { path: IO_CORE },
    },

    // ── leaves ─────────────────────────────────────────────────────────────────────────────────
    {
      name: "leaves-import-nothing",
      severity: "error",
      comment:
        "log.ts, result.ts, errors.ts, version.ts and lifetime.ts are leaves every layer may use; they import nothing from src/ " +
        "but each other (result.ts types a failure's code by the closed set in errors.ts) — and log.ts the scrubbing " +
        "stderr of safety/egress.ts, itself pure text work over safety/redact.ts, so no log line leaves unscrubbed.",
      from: { path: "^src/(log|result|errors|version|lifetime)\\.ts$" },
      to: { path: "^src/", pathNot: "^src/((log|result|errors|version)\\.ts|safety/(egress|redact|redact-rules)\\.ts)$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // `import type` edges are real edges here (see the header).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // `import { spawn } from "bun"` is Bun's own module, not an npm package.
    builtInModules: { add: ["bun"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
