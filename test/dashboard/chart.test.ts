/** The plots' pure parts (src/dashboard/chart.ts): y ticks a label can be honest about, the dodge, failure colours. */
import { describe, expect, test } from "bun:test";
import { dodge, failureColour, lineChart, yTicks } from "../../src/dashboard/chart.ts";

describe("yTicks", () => {
  test("a 1-2-5 step from 0 to at or above the max; counts get whole steps; an empty axis is 0 and 1", () => {
    expect(yTicks(5, { integer: true })).toEqual([0, 2, 4, 6]);
    expect(yTicks(4, { integer: true })).toEqual([0, 1, 2, 3, 4]);
    expect(yTicks(1, { integer: true })).toEqual([0, 1]);
    expect(yTicks(0, { integer: true })).toEqual([0, 1]);
    expect(yTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(yTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(yTicks(100)).toEqual([0, 50, 100]);
  });

  test("every tick label is the formatted value of the gridline it sits on", () => {
    const svg = lineChart({
      id: "calls",
      title: "Calls",
      integer: true,
      from: 0,
      to: 10,
      formatY: (y) => y.toFixed(0),
      series: [{ key: "a", points: [{ x: 5, y: 5 }] }],
    });
    const ticks = [...svg.matchAll(/<text class="tick y"[^>]*y="([\d.]+)"[^>]*data-value="([\d.]+)">([^<]*)</g)].map((m) => ({
      y: m[1],
      value: m[2],
      label: m[3],
    }));
    const grid = [...svg.matchAll(/<line class="grid"[^>]*y1="([\d.]+)"[^>]*data-value="([\d.]+)"/g)].map((m) => ({ y: m[1], value: m[2] }));
    expect(ticks.map((t) => t.label)).toEqual(["0", "2", "4", "6"]);
    expect(ticks.map((t) => ({ y: t.y, value: t.value }))).toEqual(grid);
  });
});

test("dodge centres the series on the bucket, a few pixels apart", () => {
  expect(dodge(0, 1)).toBe(0);
  expect([dodge(0, 3), dodge(1, 3), dodge(2, 3)]).toEqual([-5, 0, 5]);
});

test("a failure bar is green only at 0 %, amber up to 20 %, red above", () => {
  expect(failureColour(0)).toBe("#16a34a");
  expect(failureColour(0.1)).toBe("#d97706");
  expect(failureColour(1)).toBe("#dc2626");
});
