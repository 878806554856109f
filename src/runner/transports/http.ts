/**
 * The HTTP transport: a delegate is an endpoint. One POST with `fetch`, its body read as it
 * arrives and split into lines for the wire format's parser, and exactly one reason for the end —
 * the body ended by itself, the leg's timeout or stall limit fired, or the caller (or shutdown)
 * aborted it. The abort reaches the socket: a hung deployment costs its leg's time and no more.
 *
 * Redirects are not followed: a 3xx could carry the key to another host (an x-api-key header
 * survives a cross-origin redirect), so it ends the exchange and the service reports it.
 */
import type { HttpCall } from "../../backends/http/types.ts";
import { LineSplitter } from "../../process/lines.ts";
import type { EndReason, HttpChannel, HttpEnd, StopReason, StreamIO } from "./types.ts";

/** An error body is read for its message, never in full. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const STOP_REASONS: readonly StopReason[] = ["cancelled", "budget_exceeded", "shutdown"];

export function httpChannel(call: HttpCall): HttpChannel {
  return { target: originOf(call.url), run: (io) => exchange(call, io) };
}

async function exchange(call: HttpCall, io: StreamIO): Promise<HttpEnd> {
  const abort = new AbortController();
  let ended: EndReason | undefined;
  const stop = (reason: EndReason): void => {
    ended ??= reason;
    abort.abort();
  };
  const timer = setTimeout(() => stop("timeout"), Math.max(0, io.timeoutMs));
  const stall = stallTimer(io.stallMs, () => stop("stalled"));
  const onAbort = (): void => stop(stopReasonOf(io.signal.reason));
  if (io.signal.aborted) onAbort();
  else io.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await fetch(call.url, { method: "POST", headers: call.headers, body: call.body, signal: abort.signal, redirect: "manual" }).catch(
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    if (response instanceof Error) return endOf(ended ?? "spawn_failed", null, {}, { startError: errorName(response) });
    const readError = await readBody(response, io, stall.touch, () => ended !== undefined);
    return endOf(ended ?? "exit", response.status, headersOf(response), readError ? { readError } : {});
  } finally {
    clearTimeout(timer);
    stall.clear();
    io.signal.removeEventListener("abort", onAbort);
  }
}

/** Streams the body into lines; returns the read error, if the body broke off by itself. */
async function readBody(response: Response, io: StreamIO, touch: () => void, stopped: () => boolean): Promise<string | undefined> {
  const body = response.body;
  if (!body) return undefined;
  const limit = response.ok ? Number.POSITIVE_INFINITY : MAX_ERROR_BODY_BYTES;
  const splitter = new LineSplitter(io.onLine);
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      touch();
      read += value.byteLength;
      splitter.push(read > limit ? value.subarray(0, Math.max(0, value.byteLength - (read - limit))) : value);
      if (read > limit) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
    splitter.flush();
    return undefined;
  } catch (error) {
    splitter.flush();
    return stopped() ? undefined : errorName(error);
  }
}

function stallTimer(stallMs: number | undefined, onStall: () => void): { touch: () => void; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = (): void => {
    if (!stallMs) return;
    clearTimeout(timer);
    timer = setTimeout(onStall, stallMs);
  };
  touch();
  return { touch, clear: () => clearTimeout(timer) };
}

function endOf(endReason: EndReason, status: number | null, headers: Record<string, string>, extra: { startError?: string; readError?: string }): HttpEnd {
  return { endReason, exitCode: null, signal: null, status, headers, stderrTail: "", rawStdoutTail: "", ...extra };
}

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key.toLowerCase()] = value;
  });
  return out;
}

function stopReasonOf(reason: unknown): StopReason {
  return STOP_REASONS.find((r) => r === reason) ?? "cancelled";
}

/** A short name for a network error (ECONNREFUSED, ConnectionRefused, …), never the request it carried. */
function errorName(error: unknown): string {
  if (!(error instanceof Error)) return "network error";
  if ("code" in error && typeof error.code === "string" && error.code) return error.code;
  return error.name || "network error";
}

/** What is reached, for traces: scheme, host and port only (a path can hold a deployment name). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid url)";
  }
}
