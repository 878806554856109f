/** Which of the two programs answering to `grok` is installed (docs/backends/grok.md, "Which grok is installed"). */
export type GrokVariant = "community" | "official";

/** Which grok is installed, from `grok --help` (decisive) or `grok --version` output. Pure. */
export function detectGrokVariant(versionOrHelpText: string): GrokVariant {
  const text = versionOrHelpText.trim();
  if (/streaming-json|always-approve|grok build|x\.ai\/cli|--session-id|grok login/i.test(text)) return "official";
  if (/max-tool-rounds|text editor capabilities|GROK_API_KEY|^1\.0\.1$/.test(text)) return "community";
  // A bare version other than the community's hard-coded 1.0.1 is not the community CLI.
  if (/^v?\d+\.\d+\.\d+\S*$/.test(text)) return "official";
  return "community";
}

export function grokSupportsResume(variant: string): boolean {
  return variant === "official";
}
