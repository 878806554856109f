/**
 * init's offer to copy the running binary into ~/.local/bin (src/setup/self-install.ts), on a real
 * file system in a sandbox HOME: the copy is executable and byte-identical, registration then uses
 * the installed path, PATH advice appears only when ~/.local/bin is missing from PATH, an installed
 * copy is not offered again, and a run from sources says how to get a binary instead.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { localBinTarget, offerSelfInstall } from "../../src/setup/self-install.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

function built(dir: string, body = "#!/bin/sh\necho built\n"): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "orchestrate-linux-x64");
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

function recorder(answer: boolean) {
  const asked: string[] = [];
  const said: string[] = [];
  return {
    asked,
    said,
    ask: async (question: string) => {
      asked.push(question);
      return answer;
    },
    say: (line: string) => said.push(line),
  };
}

describe("init offers to install itself into ~/.local/bin", () => {
  test("yes: an executable, byte-identical copy; clients get that path; PATH advice when ~/.local/bin is not on PATH", async () => {
    box = makeSandbox();
    const exe = built(join(box.root, "clone", "dist"));
    const io = recorder(true);
    const env = { ...box.env, PATH: "/usr/bin:/bin" };
    const self = await offerSelfInstall({ self: [exe], env, ...io });
    const target = join(box.home, ".local", "bin", "orchestrate");
    expect(localBinTarget(env)).toBe(target);
    expect(self).toEqual([target]);
    expect(io.asked).toEqual([`Install this binary as ${target}? Clients are then registered with that path.`]);
    expect(readFileSync(target, "utf8")).toBe(readFileSync(exe, "utf8"));
    expect(statSync(target).mode & 0o777).toBe(0o755);
    const advice = io.said.join("\n");
    expect(advice).toContain(`${join(box.home, ".local", "bin")} is not on your PATH`);
    expect(advice).toContain(`export PATH="${join(box.home, ".local", "bin")}:$PATH"`);
    // Run again (from the copy or the build): nothing to offer, and with ~/.local/bin on PATH, no advice.
    const again = recorder(true);
    const onPath = { ...env, PATH: `${join(box.home, ".local", "bin")}:/usr/bin` };
    expect(await offerSelfInstall({ self: [exe], env: onPath, ...again })).toEqual([target]);
    expect(await offerSelfInstall({ self: [target], env: onPath, ...again })).toEqual([target]);
    expect(again.asked).toEqual([]);
    expect(again.said.join("\n")).not.toContain("not on your PATH");
  });

  test("no: nothing is written and clients get the running binary's path", async () => {
    box = makeSandbox();
    const exe = built(join(box.root, "clone", "dist"));
    const io = recorder(false);
    expect(await offerSelfInstall({ self: [exe], env: box.env, ...io })).toEqual([exe]);
    expect(statSync(localBinTarget(box.env), { throwIfNoEntry: false })).toBeUndefined();
  });

  test("a different binary already there is named and replaced only when the person agrees", async () => {
    box = makeSandbox();
    const target = localBinTarget(box.env);
    mkdirSync(join(box.home, ".local", "bin"), { recursive: true });
    writeFileSync(target, "#!/bin/sh\necho old\n");
    chmodSync(target, 0o755);
    const exe = built(join(box.root, "clone", "dist"));
    const io = recorder(true);
    expect(await offerSelfInstall({ self: [exe], env: box.env, ...io })).toEqual([target]);
    expect(io.asked[0]).toStartWith(`Replace ${target} (a different binary) with this one?`);
    expect(readFileSync(target, "utf8")).toBe("#!/bin/sh\necho built\n");
  });

  test("a binary installed elsewhere and found on PATH as orchestrate is kept: no copy offered", async () => {
    box = makeSandbox();
    const dir = join(box.root, "opt-bin");
    mkdirSync(dir);
    const exe = join(dir, "orchestrate");
    writeFileSync(exe, "#!/bin/sh\necho installed\n");
    chmodSync(exe, 0o755);
    const io = recorder(true);
    expect(await offerSelfInstall({ self: [exe], env: { ...box.env, PATH: `${dir}:/usr/bin` }, ...io })).toEqual([exe]);
    expect(io.asked).toEqual([]);
    expect(statSync(localBinTarget(box.env), { throwIfNoEntry: false })).toBeUndefined();
  });

  test("from sources (bun + script) there is no binary to copy: it says how to build one and asks nothing", async () => {
    box = makeSandbox();
    const io = recorder(true);
    const self = ["/usr/bin/bun", "/clone/src/main.ts"];
    expect(await offerSelfInstall({ self, env: box.env, ...io })).toEqual(self);
    expect(io.asked).toEqual([]);
    expect(io.said.join("\n")).toContain(`npm run build\`, then run dist/orchestrate-${process.platform}-${process.arch} init`);
  });
});
