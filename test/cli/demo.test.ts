/** `npm run demo` is one of the README's two commands: it must run, and show what it promises. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN_DIR, REPO_ROOT } from "../../fakes/lib/sandbox.ts";

describe("the demo", () => {
  test("runs a real MCP session over the fakes and shows each capability", async () => {
    const child = Bun.spawn([join(BUN_DIR, "bun"), join(REPO_ROOT, "scripts", "demo.ts")], {
      cwd: REPO_ROOT,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, NO_COLOR: "1" },
    });
    const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(code).toBe(0);
    for (const shown of [
      "== tools/list",
      "model verified",
      "→ fell back",
      "Notice: Served outside anthropic",
      "Job ",
      "Quota: standard — warning: 5h 92 % used",
      "Error [limit_unenforceable]",
      "Consulted pi-reviewer (pi",
      "nothing has been sent",
      "approved by one-time token",
      "A trie: prefix lookups",
      "implement                codex-worker  awaiting_host_apply",
      "+++ b/README.md",
      "review                   pi-reviewer   succeeded",
      "→ status completed, loop_done true",
      "Done:",
    ])
      expect(out).toContain(shown);
  }, 60_000);
});
