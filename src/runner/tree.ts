/**
 * The working tree around a route attempt: fingerprinted before and after, leaving out the files
 * the CLI writes on every run as its own bookkeeping. No fingerprint (not a repository, git too
 * slow) is `undefined`: the tree is unknown, and an unknown tree never allows a fallback.
 */
import { resolve } from "node:path";
import type { Adapter, RunRequest } from "../backends/contract.ts";
import { fingerprintTree, type RepoLayout } from "../git/fingerprint.ts";

const FINGERPRINT_TIMEOUT_MS = 20_000;

export interface TreeState {
  value: string;
  /** Where the repository lives, reused by the second fingerprint. */
  repo: RepoLayout;
}

/** Absolute paths of the CLI's own state files for this request (community grok's ./.grok/settings.json). */
export function bookkeepingPaths(adapter: Adapter, request: RunRequest): string[] {
  return (adapter.stateFiles?.(request) ?? []).map((file) => resolve(request.cwd, file));
}

export async function treeState(cwd: string, ignorePaths: string[], repo?: RepoLayout): Promise<TreeState | undefined> {
  const fp = await fingerprintTree(cwd, { timeoutMs: FINGERPRINT_TIMEOUT_MS, ignorePaths, ...(repo ? { repo } : {}) });
  return fp.ok ? { value: fp.value, repo: fp.repo } : undefined;
}
