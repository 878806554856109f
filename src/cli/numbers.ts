/**
 * Numbers typed on the command line. `Number()` reads "1e3" as 1000, "0x50" as 80, "" and " " as
 * 0 and "1.0" as 1, so `--port 1e3` quietly meant port 1000: a flag takes decimal digits only.
 */

/** The whole number `text` spells in decimal digits, within [min, max]; undefined otherwise. */
export function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^[0-9]{1,15}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}
