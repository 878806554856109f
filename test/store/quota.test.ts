import { expect, test } from "bun:test";
import { mustOpen, tmpStorePath } from "./tmp.ts";

test("quota: one row per identity and window, a newer observation replaces an older one, never the reverse", () => {
  const path = tmpStorePath();
  const store = mustOpen(path);
  store.quota.record("A", { window: "five_hour", state: "warning", usedPercent: 91, resetsAt: 5_000, observedAt: 100, source: "claude rate_limit_event" });
  store.quota.record("A", { window: "seven_day", state: "ok", observedAt: 100, source: "claude rate_limit_event" });
  store.quota.record("A", { window: "five_hour", state: "ok", observedAt: 50, source: "stale" });
  store.close();
  // Another process sees it: the rows are in the shared file.
  const again = mustOpen(path);
  const rows = again.quota.byAgent(["A", "B"]);
  expect(rows.has("B")).toBe(false);
  const a = (rows.get("A") ?? []).sort((x, y) => x.window.localeCompare(y.window));
  expect(a).toEqual([
    { window: "five_hour", state: "warning", usedPercent: 91, resetsAt: 5_000, observedAt: 100, source: "claude rate_limit_event" },
    { window: "seven_day", state: "ok", observedAt: 100, source: "claude rate_limit_event" },
  ]);
  again.close();
});
