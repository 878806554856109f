/**
 * The real command line run inside the test's own process: `orchestrate ARGS…` as runCli
 * (src/cli/index.ts) dispatches it through citty to the command, with config, store, runner, the
 * fake CLIs as real subprocesses and real git behind it, exactly as `bun src/main.ts` would. Only
 * the process is not spawned, so a file pays for loading citty, arktype and the services once
 * instead of once per call (docs/testing.md).
 *
 * While a command runs it holds the process (./in-process.ts takeProcess): `env` is the whole
 * environment, process.stdin is the given input (or an empty one), stdout and stderr are captured
 * as the command writes them through the scrubbing streams (src/safety/egress.ts) and report no
 * terminal, as a pipe would. The command ends through the command line's own exit path
 * (src/cli/exit-codes.ts endCommand), which throws CommandEnded here instead of exiting; then what
 * exiting would end — live process groups, jobs, the open store — ends as it does for a server
 * (src/cli/serve.ts shutdown), and everything is put back.
 *
 * What only a process shows stays spawned (`orchestrate` in test/setup/helpers.ts): serving MCP
 * (no arguments), citty's own --help and --version (printed with console and exited from inside
 * citty), a terminal, a signal, startup.
 */
import { Readable } from "node:stream";
import { CommandEnded, endCommandsByThrowing } from "../../src/cli/exit-codes.ts";
import { runCli } from "../../src/cli/index.ts";
import { shutdown } from "../../src/cli/serve.ts";
import { endServerLifetime } from "../../src/lifetime.ts";
import { log } from "../../src/log.ts";
import { takeProcess } from "./in-process.ts";
import { REPO_ROOT } from "./sandbox.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const SPAWN_ONLY = new Set(["--help", "-h", "--version", "-v"]);

/** Runs `orchestrate …args` in this process with `env` as its whole environment and `stdin` as its input. */
export async function runCliInProcess(args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun> {
  if (args.length === 0 || args.some((a) => SPAWN_ONLY.has(a)))
    throw new Error(`orchestrate ${args.join(" ")} is for a spawned process: citty prints help and exits by itself, serving is the server's own test`);
  const release = takeProcess(env, "spawn it (orchestrate() in test/setup/helpers.ts)", "a command");
  // A fresh process: nothing a file before this one left in the module registry.
  await endServerLifetime();
  const io = takeStdio(stdin ?? "");
  const listening = signalListeners();
  const level = log.level;
  const format = log.options.formatOptions;
  log.level = Number(env.ORCHESTRATE_LOG_LEVEL ?? 3);
  log.options.formatOptions = { ...format, colors: false };
  const argv = process.argv;
  process.argv = [process.execPath, `${REPO_ROOT}/src/main.ts`, ...args];
  endCommandsByThrowing(true);
  let code = 0;
  try {
    await runCli(args);
  } catch (error) {
    if (error instanceof CommandEnded) code = error.code;
    else {
      // What bun prints for an error nothing caught, and its exit code.
      io.stderr.push(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      code = 1;
    }
  }
  // The process would be gone here: nothing written from now on is the command's output.
  const run = { code, stdout: io.stdout.join(""), stderr: io.stderr.join("") };
  try {
    await shutdown();
  } finally {
    endCommandsByThrowing(false);
    process.argv = argv;
    log.options.formatOptions = format;
    log.level = level;
    listening.restore();
    io.restore();
    release();
  }
  return run;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "exit"] as const;

/** The signal and exit handlers a command installs die with its process: removed afterwards here. */
function signalListeners(): { restore: () => void } {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  return {
    restore: () => {
      for (const signal of SIGNALS)
        for (const listener of process.listeners(signal)) if (!before.get(signal)?.has(listener)) process.off(signal, listener as () => void);
    },
  };
}

type Saved = [target: object, key: string, descriptor: PropertyDescriptor | undefined];

/** stdin from `input`, stdout and stderr into arrays, none of them a terminal; restore() puts the real ones back. */
function takeStdio(input: string): { stdout: string[]; stderr: string[]; restore: () => void } {
  const saved: Saved[] = [];
  const set = (target: object, key: string, value: unknown) => {
    saved.push([target, key, Object.getOwnPropertyDescriptor(target, key)]);
    Object.defineProperty(target, key, { value, configurable: true, writable: true });
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  for (const [stream, sink] of [
    [process.stdout, stdout],
    [process.stderr, stderr],
  ] as const) {
    set(stream, "write", capture(sink));
    set(stream, "isTTY", undefined);
    set(stream, "columns", undefined);
  }
  const stdin = Readable.from(input === "" ? [] : [Buffer.from(input)], { objectMode: false });
  set(process, "stdin", Object.assign(stdin, { isTTY: undefined }));
  return {
    stdout,
    stderr,
    restore: () => {
      for (const [target, key, descriptor] of saved.reverse()) {
        if (descriptor) Object.defineProperty(target, key, descriptor);
        else Reflect.deleteProperty(target, key);
      }
    },
  };
}

const decoder = new TextDecoder();

/** A stream's write(chunk, [encoding], [callback]) that keeps the text and calls back as a drained pipe would. */
function capture(sink: string[]): (chunk: unknown, ...rest: unknown[]) => boolean {
  return (chunk, ...rest) => {
    sink.push(typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? decoder.decode(chunk) : String(chunk));
    const done = rest.find((r): r is () => void => typeof r === "function");
    if (done) queueMicrotask(done);
    return true;
  };
}
