/**
 * Fake credentials are assembled at run time from a deterministic generator, so no scanner-shaped
 * literal sits in the repository. Each corpus takes its own seed, so its values never change.
 */
export function secretGenerator(seed: number): (n: number, alphabet?: string) => string {
  let state = seed;
  return (n, alphabet = ALNUM) => {
    let out = "";
    for (let i = 0; i < n; i++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      out += alphabet[(state >>> 16) % alphabet.length];
    }
    // Real keys always mix digits in; make sure the fake ones do too.
    return n >= 4 && /[0-9]/.test(alphabet) ? `${out.slice(0, -2)}42` : out;
  };
}

export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const HEX = "0123456789abcdef";
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
export const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
export const DIGITS = "0123456789";
export const j = (...parts: string[]): string => parts.join("");
