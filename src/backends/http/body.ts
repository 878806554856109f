/**
 * Reads a response body line by line, whichever way the server sent it: a server-sent-event
 * stream (`data: {json}` records, `event:`/`id:`/`:` lines, `data: [DONE]`), or — from a server
 * that ignored `stream: true`, and for every error response — one whole JSON document. Each
 * record is handed over as it arrives; a whole document only at the end.
 */
import { asObject, type Json } from "../events.ts";

/** A whole (non-streamed) body is held until it ends; past this it is a provider failure, not an answer. */
export const MAX_WHOLE_BODY_CHARS = 32 * 1024 * 1024;

export class BodyReader {
  records = 0;
  malformed = 0;
  oversized = false;
  private whole: string[] = [];
  private wholeChars = 0;

  constructor(private readonly onRecord: (record: Json) => void) {}

  line(line: string): void {
    if (line.startsWith("data:")) {
      this.data(line.slice(5).trim());
      return;
    }
    // SSE field lines and comments (OpenRouter's ": OPENROUTER PROCESSING" keep-alives) carry nothing we read.
    if (/^(event|id|retry):/.test(line) || line.startsWith(":") || (line.trim() === "" && this.wholeChars === 0)) return;
    this.keepWhole(line);
  }

  /** The whole JSON document, when the body was one; undefined for a stream. */
  finish(): Json | undefined {
    if (this.wholeChars === 0 || this.oversized) return undefined;
    try {
      const doc = asObject(JSON.parse(this.whole.join("\n")));
      if (doc) this.records++;
      else this.malformed++;
      return doc;
    } catch {
      this.malformed++;
      return undefined;
    }
  }

  private data(payload: string): void {
    if (payload === "[DONE]" || payload === "") return;
    try {
      const record = asObject(JSON.parse(payload));
      if (!record) {
        this.malformed++;
        return;
      }
      this.records++;
      this.onRecord(record);
    } catch {
      this.malformed++;
    }
  }

  private keepWhole(line: string): void {
    if (this.oversized) return;
    this.wholeChars += line.length + 1;
    if (this.wholeChars > MAX_WHOLE_BODY_CHARS) {
      this.oversized = true;
      this.whole = [];
      return;
    }
    this.whole.push(line);
  }
}

/** A finite, non-negative number, or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The `error` object of an error record, tolerant of the shapes providers use. */
export function errorOf(record: Json): { type?: string; message?: string } | undefined {
  const error = record.error;
  if (typeof error === "string") return { message: error };
  const obj = asObject(error);
  if (!obj) return undefined;
  const type = typeof obj.type === "string" ? obj.type : typeof obj.code === "string" ? obj.code : undefined;
  const message = typeof obj.message === "string" ? obj.message : undefined;
  return { ...(type ? { type } : {}), ...(message ? { message } : {}) };
}
