/** A failure's hint, led by the CLI's own explanation of what went wrong when it gave one (redacted). */
import { redact } from "../../safety/redact.ts";

export function withExplanation(hint: string, explanation: string | undefined): string {
  return explanation ? `${redact(explanation)} ${hint}` : hint;
}
