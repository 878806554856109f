import { text } from "node:stream/consumers";

/**
 * What was piped in, for a `-` argument (a prompt, or consult's --context). Read from
 * process.stdin, the stream a test running the command line in its own process puts its input on
 * (fakes/lib/cli-in-process.ts).
 */
export function readStdin(): Promise<string> {
  return text(process.stdin);
}
