/**
 * Tool surface size: what the advertised tools cost a client's context, in tokens (characters / 4)
 * of each tool's JSON in the real `tools/list` result of the compiled binary, with every opt-in group
 * switched on (ORCHESTRATE_ALLOW_INIT=1, ORCHESTRATE_HISTORY_TOOLS=1), summed per group as src/mcp/tools/index.ts `allTools()`
 * assigns them.
 */
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import { activeTools, allTools } from "../src/mcp/tools/index.ts";
import { orchestrateBinary, rssOf, say, section, type Row } from "./helpers.ts";
import { measureStartup } from "./jsonrpc.ts";

const CORE_TARGET_TOKENS = 1500;

export async function run(): Promise<Row[]> {
  section("tool surface: tokens (chars/4) of tools/list per group, all opt-ins on");
  const box = makeSandbox({ ORCHESTRATE_ALLOW_INIT: "1", ORCHESTRATE_HISTORY_TOOLS: "1" });
  try {
    const { tools } = await measureStartup([orchestrateBinary()], box.env, box.repo, rssOf);
    const groupOf = new Map(allTools().map((t) => [t.name, t.group]));
    const perGroup = new Map<string, { tokens: number; names: string[] }>();
    for (const tool of tools as { name: string }[]) {
      const group = groupOf.get(tool.name) ?? "unknown";
      const tokens = JSON.stringify(tool).length / 4;
      const entry = perGroup.get(group) ?? { tokens: 0, names: [] };
      entry.tokens += tokens;
      entry.names.push(`${tool.name} ${Math.round(tokens)}`);
      perGroup.set(group, entry);
    }
    const missing = allTools().filter((t) => !tools.some((w) => (w as { name: string }).name === t.name));
    if (missing.length) say(`not advertised even with all opt-ins: ${missing.map((t) => t.name).join(", ")}`);
    const total = [...perGroup.values()].reduce((a, g) => a + g.tokens, 0);
    const rows: Row[] = [];
    for (const [group, g] of perGroup) {
      say(`${group.padEnd(8)} ${String(Math.round(g.tokens)).padStart(6)} tokens  (${g.names.join(", ")})`);
      const core = group === "core";
      rows.push({
        benchmark: `tool surface: ${group} (${g.names.length} tools)`,
        value: `${Math.round(g.tokens)} tokens`,
        reference: `all groups ${Math.round(total)}`,
        ratio: `${((100 * g.tokens) / total).toFixed(0)}%`,
        target: core ? `≤ ${CORE_TARGET_TOKENS} tokens` : "—",
        ...(core ? { pass: g.tokens <= CORE_TARGET_TOKENS } : {}),
      });
    }
    // What a client gets with no opt-in set: the groups activeTools({}) keeps.
    const byDefault = new Set(activeTools({}).map((t) => t.group));
    const defaultTokens = [...perGroup].filter(([group]) => byDefault.has(group as never)).reduce((a, [, g]) => a + g.tokens, 0);
    rows.push({
      benchmark: `tool surface: default (${[...byDefault].join("+")})`,
      value: `${Math.round(defaultTokens)} tokens`,
      reference: `all groups ${Math.round(total)}`,
      ratio: `${((100 * defaultTokens) / total).toFixed(0)}%`,
      target: "—",
    });
    return rows;
  } finally {
    box.cleanup();
  }
}

if (import.meta.main) console.log(await run());
