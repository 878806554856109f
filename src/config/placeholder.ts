/**
 * The `<codex-model>`-style placeholders config.example.yaml is written with. A copy of the example
 * must not validate with them in place (issue 22: it did, and every agent then failed at its first
 * run): each one is refused on its key, saying what goes there.
 */
const PLACEHOLDER = /<[A-Za-z][\w.-]*>/;

/** The first placeholder in the value, if any. */
export function placeholderIn(value: string | undefined): string | undefined {
  return value === undefined ? undefined : PLACEHOLDER.exec(value)?.[0];
}

export function placeholderProblem(value: string | undefined, what: string): { what: string; fix: string } | undefined {
  const found = placeholderIn(value);
  if (!found) return undefined;
  return { what: `${JSON.stringify(value)} still holds the placeholder ${found} from config.example.yaml`, fix: `replace it with ${what}` };
}
