/** The doctor's look at the store: opened read-only, so checking never creates or migrates it. */
import { lstatSync } from "node:fs";
import { openStore } from "../store/db.ts";
import { defaultStorePath } from "../store/paths.ts";
import { chooseStorePath } from "../store/ownership.ts";
import type { Config } from "../config/types.ts";

export interface StoreHealth {
  path: string;
  /** Why the configured path is not the one used (another program's database). */
  notice?: string;
  status: "ok" | "absent" | "error";
  message?: string;
  hint?: string;
}

export function storeHealth(config: Config, env: Record<string, string | undefined>): StoreHealth {
  const choice = chooseStorePath(config.store.path, defaultStorePath(env));
  const health = checkStore(choice.path);
  return choice.notice ? { ...health, notice: choice.notice } : health;
}

function checkStore(path: string): StoreHealth {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return { path, status: "absent", message: "not created yet; the server creates it on its first call" };
  if (stat.isFile() && (stat.mode & 0o077) !== 0) {
    return { path, status: "error", message: `mode 0${(stat.mode & 0o777).toString(8)} lets others read your history`, hint: `chmod 600 ${path}` };
  }
  const opened = openStore(path, { readonly: true });
  if (!opened.ok) return { path, status: "error", message: opened.error.message, ...(opened.error.hint ? { hint: opened.error.hint } : {}) };
  try {
    const row = opened.value.db.query("PRAGMA quick_check").get() as Record<string, unknown> | null;
    const verdict = row ? String(Object.values(row)[0]) : "no answer";
    if (verdict !== "ok")
      return { path, status: "error", message: `integrity check: ${verdict}`, hint: "move the file aside; orchestrate starts a fresh store" };
    return { path, status: "ok" };
  } finally {
    opened.value.close();
  }
}
