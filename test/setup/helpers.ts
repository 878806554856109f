/**
 * Test worlds for setup: the shared sandbox, with the fake CLIs installed either on PATH (the
 * sandbox default) or ONLY in a usual install location ($HOME/.local/bin) that PATH omits — the
 * GUI-client case. Wrappers are real executables, so resolution sees what it would on a machine.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN_DIR, FAKES_DIR, makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

export const MAIN = join(FAKES_DIR, "..", "src", "main.ts");
export const BUN = join(BUN_DIR, "bun");
export const ALL_CLIS = ["codex", "claude", "opencode", "grok", "gemini", "copilot"] as const;

/** A sandbox whose PATH has bun and the system only; the fakes sit in $HOME/.local/bin. */
export function usualLocationSandbox(clis: readonly string[] = ALL_CLIS, extraEnv: Record<string, string> = {}): Sandbox {
  const box = makeSandbox({ PATH: `${BUN_DIR}:/usr/bin:/bin`, ...extraEnv });
  const bin = join(box.home, ".local", "bin");
  mkdirSync(bin, { recursive: true, mode: 0o700 });
  for (const cli of clis) {
    const wrapper = join(bin, cli);
    writeFileSync(wrapper, `#!/bin/sh\nexec ${BUN} ${join(FAKES_DIR, cli)} "$@"\n`);
    chmodSync(wrapper, 0o755);
  }
  return box;
}

/** Runs `orchestrate …` (bun src/main.ts) without a terminal. */
export async function orchestrate(args: string[], env: Record<string, string>, stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, MAIN, ...args], {
    env,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
