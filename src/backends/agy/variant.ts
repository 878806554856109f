/**
 * Which agy build is installed, from `agy --version` (a bare semver line, e.g. `1.1.10`; the TUI
 * banner reads `Antigravity CLI 1.1.18`), and whether orchestrate can
 * drive it at all. The version is the variant: behaviour changed in 1.1.1, 1.1.8, 1.2.6, 1.2.11
 * (docs/backends/agy.md), and a build from before 1.1.1 writes nothing to a pipe in print mode (#76), which
 * must be refused up front and never read as an empty answer.
 */
/**
 * The oldest build orchestrate drives. 1.1.1 stopped print mode exiting 0 with nothing on a pipe
 * and stopped the stdin hang; 1.1.8 added `--output-format stream-json`; 1.1.10 is the first build
 * whose flag list was captured with every flag orchestrate passes (docs/backends/agy.md).
 */
export const AGY_MIN_VERSION = "1.1.10";

/** The variant name when `--version` printed no version number. */
export const AGY_UNKNOWN_VERSION = "unknown";

/** The first x.y.z in the text (a wrapper script may print more around it). */
export function agyVersionOf(text: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(text)?.[1];
}

/** Numeric comparison of two x.y.z versions. */
export function compareAgyVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export function agyAtLeast(version: string, min: string): boolean {
  return version !== AGY_UNKNOWN_VERSION && compareAgyVersions(version, min) >= 0;
}

const UPDATE = "Update it with `agy update` (or rerun the installer: curl -fsSL https://antigravity.google/cli/install.sh | bash)";

/** Why this build cannot be driven, naming the version needed; undefined when it can. */
export function agyRefusal(version: string): string | undefined {
  if (version === AGY_UNKNOWN_VERSION) {
    return `\`agy --version\` printed no version number, so orchestrate cannot tell whether this agy can run headless; it needs agy ${AGY_MIN_VERSION} or newer. ${UPDATE}.`;
  }
  if (agyAtLeast(version, AGY_MIN_VERSION)) return undefined;
  return `agy ${version} is too old to drive headless: ${whyTooOld(version)}. orchestrate needs agy ${AGY_MIN_VERSION} or newer. ${UPDATE}.`;
}

function whyTooOld(version: string): string {
  if (compareAgyVersions(version, "1.1.1") < 0)
    return "its print mode writes nothing to a pipe (exit 0, empty output — antigravity-cli #76), so every answer would look empty";
  if (compareAgyVersions(version, "1.1.8") < 0) return "it has no --output-format stream-json, only plain text";
  return "it lacks flags orchestrate passes (--disable-slash-commands is first seen in 1.1.10)";
}
