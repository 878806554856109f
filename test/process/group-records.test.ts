/** A restarted server ends a dead server's recorded groups, and never a recycled pid (src/process/group-records.ts). */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endOrphanGroups, recordGroupsIn } from "../../src/process/group-records.ts";
import { processStartMs } from "../../src/process/start-time.ts";

const spawned: ReturnType<typeof Bun.spawn>[] = [];
afterEach(() => {
  for (const p of spawned.splice(0)) p.kill("SIGKILL");
});

function group(): ReturnType<typeof Bun.spawn> {
  const p = Bun.spawn(["sleep", "300"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
  spawned.push(p);
  return p;
}

describe("endOrphanGroups", () => {
  test("ends a dead owner's group, spares a live owner's, and never signals a pid that now belongs to another process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orch-groups-"));
    recordGroupsIn(dir, Date.now());
    const orphan = group();
    const recycled = group();
    const kept = group();
    const write = (pid: number, startedAt: number, ownerPid: number) =>
      writeFileSync(join(dir, `${pid}.json`), JSON.stringify({ pid, startedAt, ownerPid, ownerStartedAt: 1 }));
    write(orphan.pid, processStartMs(orphan.pid) ?? 0, 111);
    // The pid is alive, but its process started an hour after the recorded one: a recycled pid.
    write(recycled.pid, (processStartMs(recycled.pid) ?? 0) - 3_600_000, 111);
    write(kept.pid, processStartMs(kept.pid) ?? 0, 222);
    const ended = endOrphanGroups((pid) => pid === 222);
    expect(ended).toEqual([orphan.pid]);
    await orphan.exited;
    expect(orphan.signalCode).toBe("SIGKILL");
    expect(recycled.killed || recycled.exitCode !== null).toBe(false);
    expect(kept.exitCode).toBeNull();
    expect(existsSync(join(dir, `${orphan.pid}.json`))).toBe(false);
    expect(existsSync(join(dir, `${recycled.pid}.json`))).toBe(false);
    expect(existsSync(join(dir, `${kept.pid}.json`))).toBe(true);
  });
});
