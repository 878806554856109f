/** Temp dirs and config files with the exact modes the hardened loader checks. */
import { afterEach } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "../../src/log.ts";

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh private directory (0700), removed after the test. */
export function privateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "orch-cfg-"));
  chmodSync(dir, 0o700);
  made.push(dir);
  return dir;
}

/** Writes `text` at dir/name with `mode` (default 0600), creating dir/ 0700 if needed. */
export function writeConfig(dir: string, name: string, text: string, mode = 0o600): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

/** Collects what `log` writes while `fn` runs (the logger writes to stderr, never stdout). */
export async function captureLog<T>(fn: () => Promise<T> | T): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const saved = log.options.reporters;
  log.setReporters([{ log: (entry) => lines.push(`${entry.type}: ${entry.args.map(String).join(" ")}`) }]);
  try {
    return { value: await fn(), lines };
  } finally {
    log.setReporters(saved);
  }
}

/** Seed 000's example with its <provider>/<model> placeholders filled in (placeholders are refused). */
export const SEED_000_CONFIG_JSON = `{
  "tiers": {
    "light":    null,
    "standard": { "backend": "opencode", "model": "deepseek/deepseek-v4" },
    "heavy":    { "backend": "claude", "model": "opus", "permissionMode": "acceptEdits" }
  },
  "capabilities": {
    "vision": { "backend": "opencode", "model": "deepseek/deepseek-v4-vision", "capabilities": ["vision"] }
  },
  "fallbacks": { "light": "standard", "heavy": "standard" },
  "allowCrossProviderFallback": false
}
`;

export const SEED_001_CONFIG_YAML = `consult:
  database_path: ~/.orchestrator-mcp/consultations.sqlite3
  timeout_s: 180

  agents:
    codex:
      runtime: codex
      command: codex
      model: gpt-5.6-sol
      priority: 10
      web_search: true
      scores: { coding: 95, research: 90, reasoning: 95, review: 90 }

    claude:
      runtime: claude
      command: claude
      model: claude-opus-4-6
      priority: 10
      web_search: true
      scores: { coding: 90, research: 95, writing: 95, review: 95 }
`;
