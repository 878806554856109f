/**
 * `orchestrate run`'s progress on stderr. On a terminal one line is redrawn in place (`\r` and
 * clear-line) with a spinner and the elapsed time, and ended with a newline; piped or logged, a
 * line is written only when the text changes, so a long task does not print one every heartbeat.
 */
export interface StatusStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class StatusLine {
  private last: string | undefined;
  private frame = 0;
  private drawn = false;

  constructor(
    private readonly stream: StatusStream,
    private readonly now: () => number = Date.now,
    private readonly started = now(),
  ) {}

  /** The current "attempt · agent · doing" text; repeats of the same text redraw only on a terminal. */
  update(text: string): void {
    if (this.stream.isTTY) {
      this.draw(text);
      return;
    }
    if (text === this.last) return;
    this.last = text;
    this.stream.write(`… ${text}\n`);
  }

  /** Ends the in-place line so what follows starts on a fresh one. */
  done(): void {
    if (this.stream.isTTY && this.drawn) this.stream.write("\n");
    this.drawn = false;
  }

  private draw(text: string): void {
    this.last = text;
    const spin = SPINNER[this.frame++ % SPINNER.length] ?? "";
    const elapsed = Math.round((this.now() - this.started) / 1000);
    this.stream.write(`\r\x1b[2K${spin} ${text} · ${elapsed} s`);
    this.drawn = true;
  }
}
