/**
 * argv + stdin for one pi run, per release line (docs/backends/pi.md, "How a run is started" and
 * "Keeping the person's configuration out"). Always the JSON event mode (`--mode json`): one
 * shot, streamed events, the session id on line 1, an exit of its own.
 *
 * The prompt goes on stdin, which is then closed, and never in argv: pi reads a non-terminal stdin
 * to EOF and uses it as the message when no positional one is given (checked on 0.73.1 in
 * `--mode json`). A positional prompt would be visible to every local user in `ps`, would hit the
 * kernel's 128 KiB limit per argument (consult context can be far longer), and on 0.73 a prompt
 * starting with `-` cannot be passed positionally at all, and one starting with `@` is read as a
 * file to inline.
 *
 * Isolation. pi keeps credentials (`auth.json`, written by /login, OAuth tokens refreshed in
 * place), custom providers (`models.json`), settings and sessions in one agent dir, moved only as
 * a whole by `PI_CODING_AGENT_DIR`; neither line has a variable for the auth file alone (0.73.1
 * `config.js`: auth, models and settings are all `<agent dir>/…`). A private agent dir would cut
 * the person off from their /login credentials and models.json providers (a copy would also break
 * OAuth refresh-token rotation), and in answer mode it would be deleted with the throw-away home,
 * taking the session a consultation resumes with it. So pi runs with the person's own agent dir,
 * and everything in it or in the project that is not credentials, providers or sessions is
 * switched off by flags:
 *  - `--no-extensions --no-skills --no-prompt-templates --no-themes --no-context-files`: user and
 *    project extensions (also those from installed packages), skills, prompt templates, themes,
 *    AGENTS.md / CLAUDE.md;
 *  - `--system-prompt "" --append-system-prompt ""`: SYSTEM.md and APPEND_SYSTEM.md of the agent
 *    dir and of the project's `.pi/`, which survive the `--no-*` flags. An explicit
 *    empty value replaces the file lookup and resolves to nothing, so pi's stock prompt is used
 *    (checked on 0.73.1 against a loopback server: none of the four files reached the request;
 *    1.x has both flags, but this was not run on 1.x here);
 *  - 1.x only: `--no-approve` (project `.pi/` settings, extensions and prompts stay untrusted) and
 *    `--no-mcp` (no MCP servers from `mcp.json`).
 * What remains is the person's `settings.json` and, on 0.73, a project `.pi/settings.json` (0.73
 * has no trust gate for it).
 */
import type { Invocation, RunRequest } from "../contract.ts";
import { isLine1 } from "./variant.ts";

/** The read-only built-in tools (pi's own "Read-only mode" help example). pi has no sandbox. */
export const PI_READ_ONLY_TOOLS = "read,grep,find,ls";

const RESOURCE_ISOLATION = ["--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files"];
const PROMPT_FILE_ISOLATION = ["--system-prompt", "", "--append-system-prompt", ""];
const LINE1_ISOLATION = ["--no-approve", "--no-mcp"];

export function piInvocation(req: RunRequest): Invocation {
  const args = [
    "--mode",
    "json",
    ...modelArgs(req),
    // No update check, telemetry or (1.x) model-catalog refresh at startup.
    "--offline",
    ...RESOURCE_ISOLATION,
    ...PROMPT_FILE_ISOLATION,
    ...(isLine1(req.variant) ? LINE1_ISOLATION : []),
    // Route mode keeps pi's default tools (read, bash, edit, write), which run without approval.
    ...(req.mode === "answer" ? ["--tools", PI_READ_ONLY_TOOLS] : []),
    // An id (or unique prefix) looked up in the cwd's session folder of the agent dir; the answer
    // cwd is the same path on every turn of a consultation.
    ...(req.resumeSessionId ? ["--session", req.resumeSessionId] : []),
  ];
  return { args, stdin: req.prompt };
}

/**
 * The declared provider always goes with the model: a bare `--model` matching several providers
 * silently picks one (docs/backends/pi.md), and with none pi picks its own default, possibly another
 * vendor's — the provider must be the agent's, never pi's guess.
 */
function modelArgs(req: RunRequest): string[] {
  return [...(req.provider ? ["--provider", req.provider] : []), ...(req.model ? ["--model", req.model] : [])];
}
