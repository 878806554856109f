/**
 * Everything a page handler reads: the read-only runtime, the doctor's last report (probing every
 * CLI spawns processes, so it runs in the background and the pages show the last result), the
 * token, and — in editable mode only — where the managed file lives.
 */
import { runDoctor, type DoctorReport } from "../doctor/checks.ts";
import type { Runtime } from "../services/shared/runtime.ts";

/** Re-probe the CLIs at most this often, and only when a page asks. */
const DOCTOR_TTL_MS = 5 * 60_000;

export interface DoctorCache {
  /** The last finished report, if any; starts a refresh in the background when stale. */
  current(): DoctorReport | undefined;
  /** Resolves when the first probe has finished (tests, screenshots). */
  ready: Promise<void>;
  /** Counts finished probes: the live view refreshes when a new report lands. */
  version(): number;
}

export interface DashboardContext {
  rt: Runtime;
  doctor: DoctorCache;
  token: string;
  /** Set in editable mode: the managed file the agent editor writes (never the main config). */
  managedPath?: string;
}

export function doctorCache(rt: Runtime): DoctorCache {
  let report: DoctorReport | undefined;
  let at = 0;
  let running: Promise<void> | undefined;
  let reports = 0;
  const refresh = (): Promise<void> => {
    running ??= runDoctor(rt.config, rt.env)
      .then((r) => {
        report = r;
        at = Date.now();
        reports += 1;
      })
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const ready = refresh();
  return {
    ready,
    version: () => reports,
    current() {
      if (report && Date.now() - at > DOCTOR_TTL_MS) void refresh();
      return report;
    },
  };
}
