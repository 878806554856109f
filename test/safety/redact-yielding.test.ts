/**
 * The yielding scrubber (src/safety/redact.ts) runs the same passes as redact() and findSecrets()
 * with the event loop handed back between them, so a 2M-character review plan does not stall
 * every other request (issue 21 item 5). Same result, and the loop really runs meanwhile.
 */
import { describe, expect, test } from "bun:test";
import { findSecrets, findSecretsYielding, redact, redactYielding } from "../../src/safety/redact.ts";
import { material } from "../../bench/review-block.ts";
import { SHAPES, shapesText } from "../helpers/credential-shapes.ts";

/** Past the size where the yielding forms start to yield: the shapes, a PEM-ish block, escapes, filler. */
function big(): string {
  const filler = material(200_000);
  return [
    filler.slice(0, 70_000),
    shapesText(),
    "\x1b[31mtoken=\x1b[0mghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
    "password: |\n  s3cr3t-block-value\n  more\nnext: 1",
    filler.slice(70_000),
  ].join("\n");
}

describe("the yielding scrubber", () => {
  test("redacts and locates exactly as the one-pass forms do", async () => {
    const text = big();
    expect(text.length).toBeGreaterThan(64 * 1024);
    const redacted = await redactYielding(text);
    expect(redacted).toBe(redact(text));
    expect(await findSecretsYielding(text)).toEqual(findSecrets(text));
    for (const shape of SHAPES) expect(redacted).not.toContain(shape.secret);
  });

  test("small texts take the one-pass path and give the same answer", async () => {
    const text = shapesText();
    expect(await redactYielding(text)).toBe(redact(text));
    expect(await findSecretsYielding(text)).toEqual(findSecrets(text));
  });

  test("the event loop runs while 2M characters are scrubbed and located", async () => {
    const text = material(2_000_000);
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks += 1;
    }, 1);
    try {
      await findSecretsYielding(text);
      await redactYielding(text);
    } finally {
      clearInterval(timer);
    }
    // The one-pass forms give a timer no turn at all until they return.
    expect(ticks).toBeGreaterThan(10);
    process.stderr.write(`[redact] 2M characters located and scrubbed: ${ticks} timer turns, longest wait ${longest.toFixed(0)} ms\n`);
  }, 30_000);
});
