/**
 * Startup: spawn → `initialize` reply and → `tools/list` reply, and VmRSS right after tools/list, for
 * the compiled orchestrate binary, the bare compiled Bun floor (bench/fixtures/floor.ts) and, when it
 * can be installed, the peer mcp-orchestrate on node. All sides interleaved in one run.
 */
import { makeSandbox } from "../fakes/lib/sandbox.ts";
import {
  fixtureBinary,
  floorBinary,
  interleave,
  iterations,
  median,
  mib,
  ms,
  orchestrateBinary,
  peerEntry,
  ratio,
  rssOf,
  say,
  section,
  type Row,
} from "./helpers.ts";
import { measureStartup, type StartupSample } from "./jsonrpc.ts";

const CONFIG = `agents:
  oc: { backend: opencode, model: deepseek/deepseek-v4 }
tiers:
  light: [oc]
  standard: [oc]
  heavy: [oc]
`;

export async function run(): Promise<Row[]> {
  section("startup: spawn → initialize / tools/list, RSS after tools/list");
  const box = makeSandbox();
  box.writeConfig(CONFIG);
  try {
    const sides: Record<string, () => Promise<StartupSample>> = {
      orchestrate: () => measureStartup([orchestrateBinary()], box.env, box.repo, rssOf),
      floor: () => measureStartup([floorBinary()], box.env, box.repo, rssOf),
      "sdk-floor": () => measureStartup([fixtureBinary("sdk-floor")], box.env, box.repo, rssOf),
    };
    const peer = peerEntry();
    if (peer.ok) sides.peer = () => measureStartup(peer.argv, box.env, box.repo, rssOf);
    else say(`peer column skipped: ${peer.why}`);
    const n = iterations(20);
    const samples = await interleave(sides, n, 2);
    const stat = (side: string, key: Key): number => median((samples[side] ?? []).map((s) => s[key]));
    for (const side of Object.keys(samples)) {
      say(
        `${side.padEnd(11)} initialize ${ms(stat(side, "initializeMs"))}  tools/list ${ms(stat(side, "toolsListMs"))}  RSS ${mib(stat(side, "rssBytes"))} (anon ${mib(stat(side, "anonBytes"))})  (n=${n})`,
      );
    }
    return rows(stat, peer.ok);
  } finally {
    box.cleanup();
  }
}

type Key = "initializeMs" | "toolsListMs" | "rssBytes" | "anonBytes";
type Stat = (side: string, key: Key) => number;

function rows(stat: Stat, withPeer: boolean): Row[] {
  const o = (k: Key): number => stat("orchestrate", k);
  const f = (k: Key): number => stat("floor", k);
  const sdk = (k: Key): number => stat("sdk-floor", k);
  const out: Row[] = [
    {
      benchmark: "startup → initialize vs floor",
      value: ms(o("initializeMs")),
      reference: ms(f("initializeMs")),
      ratio: ratio(o("initializeMs"), f("initializeMs")),
      target: "—",
    },
    {
      benchmark: "startup → tools/list vs floor",
      value: ms(o("toolsListMs")),
      reference: ms(f("toolsListMs")),
      ratio: ratio(o("toolsListMs"), f("toolsListMs")),
      // The house target (issue 20): within 1.5× of a bare compiled Bun server answering the same two requests.
      target: "≤ 1.5×",
      pass: o("toolsListMs") <= 1.5 * f("toolsListMs"),
    },
    {
      benchmark: "RSS after tools/list vs floor",
      value: mib(o("rssBytes")),
      reference: mib(f("rssBytes")),
      ratio: ratio(o("rssBytes"), f("rssBytes")),
      target: "—",
    },
    {
      benchmark: "startup → tools/list vs SDK floor",
      value: ms(o("toolsListMs")),
      reference: ms(sdk("toolsListMs")),
      ratio: ratio(o("toolsListMs"), sdk("toolsListMs")),
      target: "—",
      note: "SDK floor = bench/fixtures/sdk-floor.ts, a bare v1 SDK Server with one tool",
    },
    {
      benchmark: "RSS after tools/list vs SDK floor",
      value: mib(o("rssBytes")),
      reference: mib(sdk("rssBytes")),
      ratio: ratio(o("rssBytes"), sdk("rssBytes")),
      target: "—",
    },
  ];
  if (!withPeer) return out;
  const p = (k: Key): number => stat("peer", k);
  out.push(
    {
      benchmark: "startup → initialize vs peer (node)",
      value: ms(o("initializeMs")),
      reference: ms(p("initializeMs")),
      ratio: ratio(o("initializeMs"), p("initializeMs")),
      target: "—",
    },
    {
      benchmark: "startup → tools/list vs peer (node)",
      value: ms(o("toolsListMs")),
      reference: ms(p("toolsListMs")),
      ratio: ratio(o("toolsListMs"), p("toolsListMs")),
      target: "≤ 0.2×",
      pass: o("toolsListMs") <= 0.2 * p("toolsListMs"),
    },
    {
      benchmark: "RSS after tools/list vs peer (node)",
      value: mib(o("rssBytes")),
      reference: mib(p("rssBytes")),
      ratio: ratio(o("rssBytes"), p("rssBytes")),
      target: "≤ 0.6×",
      pass: o("rssBytes") <= 0.6 * p("rssBytes"),
    },
  );
  return out;
}

if (import.meta.main) console.log((await run()).map((r) => `${r.benchmark}: ${r.value} vs ${r.reference} = ${r.ratio}`).join("\n"));
