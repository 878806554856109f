import { expect, test } from "bun:test";
import { checkDepth, childDepthEnv, currentDepth } from "../../src/safety/depth.ts";

test("depth is 0 when unset and read from ORCHESTRATE_DEPTH otherwise", () => {
  expect(currentDepth({})).toBe(0);
  expect(currentDepth({ ORCHESTRATE_DEPTH: "" })).toBe(0);
  expect(currentDepth({ ORCHESTRATE_DEPTH: "2" })).toBe(2);
});

test("a garbled depth fails closed", () => {
  for (const raw of ["-1", "abc", "1.5", "1e3", "99999"]) {
    expect(currentDepth({ ORCHESTRATE_DEPTH: raw })).toBe(Number.POSITIVE_INFINITY);
    const result = checkDepth({ ORCHESTRATE_DEPTH: raw }, 8);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain(`with an unreadable ORCHESTRATE_DEPTH=${JSON.stringify(raw)}`);
  }
});

test("the top level may delegate; a delegate at maxDepth may not", () => {
  expect(checkDepth({}, 1)).toEqual({ ok: true, value: 0 });
  const nested = checkDepth({ ORCHESTRATE_DEPTH: "1" }, 1);
  expect(nested.ok).toBe(false);
  if (nested.ok) return;
  expect(nested.error.code).toBe("recursion_limit");
  expect(nested.error.message).toContain("at depth 1 (maxDepth 1)");
  expect(nested.error.hint).toContain("do the work yourself");
  expect(checkDepth({ ORCHESTRATE_DEPTH: "1" }, 2)).toEqual({ ok: true, value: 1 });
  expect(checkDepth({}, 0).ok).toBe(false);
});

test("children get depth + 1", () => {
  expect(childDepthEnv({})).toEqual({ ORCHESTRATE_DEPTH: "1" });
  expect(childDepthEnv({ ORCHESTRATE_DEPTH: "3" })).toEqual({ ORCHESTRATE_DEPTH: "4" });
});

test("a real child process sees the incremented depth and refuses past the limit", () => {
  const script = `
    const { checkDepth } = await import(${JSON.stringify(`${import.meta.dir}/../../src/safety/depth.ts`)});
    process.stdout.write(JSON.stringify(checkDepth(process.env, 1)));
  `;
  const env = { ...process.env, ...childDepthEnv({}) };
  const run = Bun.spawnSync([process.execPath, "-e", script], { env });
  const result = JSON.parse(run.stdout.toString());
  expect(result.ok).toBe(false);
  expect(result.error.code).toBe("recursion_limit");
});
