/**
 * Delete-all is two calls: request (says what would go, returns a one-time token) then confirm.
 * The token is random, bound to the kind and to this store, valid for five minutes, usable once,
 * and kept only as a SHA-256 in this process's memory — a token seen in a transcript later is dead.
 */
import { fail, ok, type Result } from "../../result.ts";
import type { Store } from "../../store/db.ts";
import { countKind, deleteKind, LOCAL_ONLY_NOTE, type DeletionReport, type HistoryCounts, type HistoryKind } from "./index.ts";
import { memoryTokens } from "../shared/tokens.ts";

export const TOKEN_TTL_MS = 5 * 60_000;

const pending = memoryTokens<{ kind: HistoryKind; storePath: string }>("del", TOKEN_TTL_MS);

export interface DeleteRequest {
  token: string;
  kind: HistoryKind;
  expires_at: string;
  would_delete: HistoryCounts;
  note: string;
}

export function requestDeleteAll(store: Store, kind: HistoryKind, now: number): DeleteRequest {
  const { token, expiresAt } = pending.issue(() => ({ kind, storePath: store.path }), now);
  return { token, kind, expires_at: new Date(expiresAt).toISOString(), would_delete: countKind(store, kind), note: LOCAL_ONLY_NOTE };
}

export function confirmDeleteAll(store: Store, token: string, now: number): Result<DeletionReport & { kind: HistoryKind }> {
  // One use, whatever happens next: a failed confirm must not leave the token live.
  const found = pending.take(token, now);
  if (!found || found.storePath !== store.path) {
    return fail(
      "invalid_token",
      "That confirm token is unknown, already used, or expired (tokens last five minutes and belong to the server process that issued them).",
      "Call request_delete_all again and confirm with the new token.",
    );
  }
  return ok({ kind: found.kind, ...deleteKind(store, found.kind) });
}
