/**
 * `/events`: a Server-Sent Events stream that says "change" whenever another connection committed
 * to the store (or the doctor's CLI probe finished). `PRAGMA data_version` answers that without
 * reading a table, so watching costs nothing over a big history; a comment line every few seconds
 * keeps the connection open.
 */
import { redact } from "../safety/redact.ts";

const POLL_MS = 500;
const HEARTBEAT_MS = 5000;

/** `version()` changes whenever what the pages show may have changed. */
export function eventStream(version: () => string, signal: AbortSignal, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let seen = version();
      let quiet = 0;
      // Only store versions go out today; scrubbed all the same, as every dashboard egress is.
      const send = (text: string) => controller.enqueue(encoder.encode(redact(text)));
      send(`retry: 2000\nevent: hello\ndata: ${seen}\n\n`);
      timer = setInterval(() => {
        const now = version();
        quiet += POLL_MS;
        if (now !== seen) {
          seen = now;
          quiet = 0;
          send(`event: change\ndata: ${now}\n\n`);
        } else if (quiet >= HEARTBEAT_MS) {
          quiet = 0;
          send(": still here\n\n");
        }
      }, POLL_MS);
      signal.addEventListener("abort", () => {
        clearInterval(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      });
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { ...headers, "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" } });
}
