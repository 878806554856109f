/**
 * Locating credential spans is linear (issue 21): a review plan over credential-dense material used
 * to search every kept span per new span, and count lines from the start per span — 300 KB blocked
 * the server for seconds. Compared at n and 4n (a quadratic scan costs ~16×, a linear one ~4×), not
 * against a clock, so a loaded machine shifts both sides alike.
 */
import { describe, expect, test } from "bun:test";
import { findSecrets } from "../../src/safety/redact.ts";
import { locateSecrets } from "../../src/services/review/material.ts";

/** A span every 14 characters (on one line, or one per line): the worst cases for the old scans. */
const dense = (n: number, sep = " ") => `https://u:p@h${sep}`.repeat(Math.ceil(n / 14)).slice(0, n);

/** The fastest of five runs: load from elsewhere only ever adds time, so the minimum is the scan's own cost. */
function cost(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** cost(4n) / cost(n), the best of three tries: a busy machine can only make one try look worse. */
function growth(small: () => unknown, large: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3 && best >= 8; i++) best = Math.min(best, cost(large) / cost(small));
  return best;
}

describe("credential spans are found in linear time", () => {
  const n = 14 * 4000;
  const small = dense(n);
  const large = dense(4 * n);

  test("findSecrets: 4× the text costs well under 16×", () => {
    findSecrets(small);
    expect(findSecrets(large).length).toBe(4 * findSecrets(small).length);
    expect(
      growth(
        () => findSecrets(small),
        () => findSecrets(large),
      ),
    ).toBeLessThan(8);
  });

  test("locateSecrets: the same, with line and column still right", () => {
    const lines = dense(n, "\n");
    const located = locateSecrets([{ label: "m", text: `a\n${lines}`, firstLine: 10 }]);
    expect(located[1]).toEqual({ where: "m", line: 12, column: 11, kind: "url_password" });
    const many = dense(4 * n, "\n");
    expect(
      growth(
        () => locateSecrets([{ label: "m", text: lines }]),
        () => locateSecrets([{ label: "m", text: many }]),
      ),
    ).toBeLessThan(8);
    expect(
      growth(
        () => locateSecrets([{ label: "m", text: small }]),
        () => locateSecrets([{ label: "m", text: large }]),
      ),
    ).toBeLessThan(8);
  });
});
