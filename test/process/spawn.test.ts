import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupMembers } from "../../src/process/kill.ts";
import { runProcess, type ProcessOptions } from "../../src/process/spawn.ts";

const SH = "/bin/sh";
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

function sh(script: string, extra: Partial<ProcessOptions> = {}): ReturnType<typeof runProcess> {
  return runProcess({ command: SH, args: ["-c", script], cwd: tmpdir(), env, timeoutMs: 10_000, ...extra });
}

describe("runProcess: normal runs", () => {
  test("stdout lines reach onLine in order, exit code and pid are reported", async () => {
    const seen: string[] = [];
    const result = await sh("echo one; echo two; printf three; exit 3", { onLine: (line) => seen.push(line) });
    expect(seen).toEqual(["one", "two", "three"]);
    expect(result).toMatchObject({ endReason: "exit", exitCode: 3, signal: null, lines: 3 });
    expect(result.pid).toBeGreaterThan(0);
  });

  test("a character and a line split across separate writes arrive whole", async () => {
    const seen: string[] = [];
    // 🎉 = F0 9F 8E 89, written in two halves with a pause so they land in different chunks.
    await sh(String.raw`printf '\360\237'; sleep 0.1; printf '\216\211 party\nlast-no-newline'`, { onLine: (line) => seen.push(line) });
    expect(seen).toEqual(["🎉 party", "last-no-newline"]);
  });

  test("stdin undefined: no pipe at all, a child reading to EOF returns at once", async () => {
    const seen: string[] = [];
    const result = await sh("if [ -p /dev/stdin ]; then echo pipe; else echo no-pipe; fi; cat; echo done", {
      onLine: (line) => seen.push(line),
      timeoutMs: 5000,
    });
    expect(result.endReason).toBe("exit");
    expect(seen).toEqual(["no-pipe", "done"]);
  });

  test("stdin text is written then closed", async () => {
    const seen: string[] = [];
    const result = await sh("cat; echo '<eof>'", { stdin: "prompt line 1\nprompt ✓", onLine: (line) => seen.push(line), timeoutMs: 5000 });
    expect(result.endReason).toBe("exit");
    expect(seen).toEqual(["prompt line 1", "prompt ✓<eof>"]);
  });

  test("the child gets exactly the given env", async () => {
    const seen: string[] = [];
    await runProcess({ command: "/usr/bin/env", args: [], cwd: tmpdir(), env: { ONLY_THIS: "1" }, timeoutMs: 5000, onLine: (line) => seen.push(line) });
    expect(seen).toEqual(["ONLY_THIS=1"]);
  });

  test("stderr is kept as a bounded tail; rawStdoutTail keeps only non-JSON stdout lines", async () => {
    const result = await sh(`echo '{"type":"x"}'; echo 'plain error on stdout'; head -c 100000 /dev/zero | tr '\\0' e >&2; echo END >&2`, {
      stderrTailBytes: 1024,
    });
    expect(result.stderrTail.length).toBe(1024);
    expect(result.stderrTail.endsWith("eeeEND\n")).toBe(true);
    expect(result.rawStdoutTail).toBe("plain error on stdout");
  });

  test("stderr lines reach onStderrLine as they arrive (a retry announced there), and the tail is still kept", async () => {
    const seen: { line: string; at: number }[] = [];
    const started = Date.now();
    const result = await sh("echo 'stream error 1' >&2; sleep 0.3; printf 'stream error 2' >&2", {
      onStderrLine: (line) => seen.push({ line, at: Date.now() - started }),
    });
    expect(seen.map((s) => s.line)).toEqual(["stream error 1", "stream error 2"]);
    // The first line is seen before the child goes on, not only at exit.
    expect(seen[0]?.at ?? 9999).toBeLessThan(seen[1]?.at ?? 0);
    expect(result.stderrTail).toBe("stream error 1\nstream error 2");
  });

  test("a 50 MB line is truncated at maxLineBytes, never buffered whole", async () => {
    const lengths: number[] = [];
    const result = await sh("head -c 52428800 /dev/zero | tr '\\0' a; echo; echo after", {
      maxLineBytes: 1 << 20,
      onLine: (line) => lengths.push(line.length),
      timeoutMs: 30_000,
    });
    expect(result.endReason).toBe("exit");
    expect(lengths).toEqual([1 << 20, 5]);
  });

  test("onStdout gets the bytes as written: no line splitting, no CR stripping, no line tail", async () => {
    const chunks: Uint8Array[] = [];
    const lines: string[] = [];
    const result = await sh(String.raw`printf 'a\r\nb\0c'; printf 'plain\n'`, {
      onStdout: (chunk) => chunks.push(chunk.slice()),
      onLine: (line) => lines.push(line),
    });
    expect(Buffer.concat(chunks).toString()).toBe("a\r\nb\0cplain\n");
    expect(lines).toEqual([]);
    expect(result).toMatchObject({ endReason: "exit", exitCode: 0, lines: 0, rawStdoutTail: "" });
  });

  test("a leader that exits leaving a grandchild on stdout returns, and the grandchild is swept", async () => {
    let grandchild = 0;
    const started = Date.now();
    const result = await sh("sleep 1000 & echo gc $!; exit 0", { graceMs: 500, onLine: (line) => (grandchild = Number(line.split(" ")[1])) });
    expect(result).toMatchObject({ endReason: "exit", exitCode: 0 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(grandchild).toBeGreaterThan(0);
    expect(groupMembers(result.pid ?? -1)).toEqual([]);
  });
});

describe("runProcess: members that escaped the group", () => {
  test("a process that escaped the group (setsid) and holds stdout does not hang the reader", async () => {
    let escaped = 0;
    const started = Date.now();
    try {
      const result = await sh("setsid sleep 1000 & echo escaped $!; echo bye", {
        graceMs: 300,
        onLine: (line) => line.startsWith("escaped ") && (escaped = Number(line.slice(8))),
      });
      expect(result).toMatchObject({ endReason: "exit", exitCode: 0, lines: 2 });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      if (escaped > 0) process.kill(escaped, "SIGKILL");
    }
  });
});

describe("runProcess: spawn failures are values", () => {
  test("ENOENT → spawn_failed", async () => {
    const result = await runProcess({ command: "/nonexistent/codex", args: [], cwd: tmpdir(), env, timeoutMs: 1000 });
    expect(result).toMatchObject({ endReason: "spawn_failed", spawnError: "ENOENT", exitCode: null, lines: 0 });
    expect(result.pid).toBeUndefined();
  });

  test("a file that is not executable → spawn_failed with its error code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orch-spawn-"));
    const file = join(dir, "not-exec");
    writeFileSync(file, "#!/bin/sh\necho hi\n");
    chmodSync(file, 0o644);
    const result = await runProcess({ command: file, args: [], cwd: dir, env, timeoutMs: 1000 });
    expect(result.endReason).toBe("spawn_failed");
    expect(result.spawnError).toMatch(/^E[A-Z]+$/);
  });

  test("an already aborted signal never spawns", async () => {
    const controller = new AbortController();
    controller.abort("budget_exceeded");
    const result = await sh("echo never", { signal: controller.signal });
    expect(result).toMatchObject({ endReason: "budget_exceeded", lines: 0 });
    expect(result.pid).toBeUndefined();
  });
});
