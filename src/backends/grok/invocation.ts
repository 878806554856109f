/** argv for one run of either grok (docs/backends/grok.md, "How a run is started"); the prompt is an argument. */
import type { Invocation, RunRequest } from "../contract.ts";

export function grokInvocation(req: RunRequest): Invocation {
  return req.variant === "official" ? officialInvocation(req) : communityInvocation(req);
}

/**
 * Community: no permission or tool flags exist, so answer mode can only confine the run to the
 * answer cwd (-d); any tool it still runs shows up as a `tool` event and is caught by the caller.
 * Resume is impossible (no sessions) and ignored; the service refuses it via grokSupportsResume.
 */
function communityInvocation(req: RunRequest): Invocation {
  const args = [...promptArgs(req.prompt, "--prompt"), "-d", req.cwd];
  if (req.model) args.push("-m", req.model);
  return { args };
}

function officialInvocation(req: RunRequest): Invocation {
  const args = [...promptArgs(req.prompt, "--single"), "--output-format", "streaming-json", "--cwd", req.cwd, "--no-auto-update"];
  if (req.model) args.push("-m", req.model);
  if (req.resumeSessionId) args.push("--resume", req.resumeSessionId);
  // Route mode acts in the user's tree; answer mode leaves tools unapproved (headless denies them).
  if (req.mode === "route") args.push("--always-approve");
  return { args };
}

/** A dash-leading prompt after `-p` would parse as a flag; the `=` form keeps it a value. */
function promptArgs(prompt: string, longFlag: string): string[] {
  return prompt.startsWith("-") ? [`${longFlag}=${prompt}`] : ["-p", prompt];
}

/** The community CLI writes ./.grok/settings.json into the working dir on every run (docs/backends/grok.md). */
export function grokStateFiles(req: RunRequest): string[] {
  return (req.variant ?? "community") === "community" ? [".grok/settings.json"] : [];
}
