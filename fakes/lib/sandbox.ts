/**
 * A throw-away world for end-to-end tests: HOME, a 0700 config dir, a projects root holding a real
 * git repo, a record dir the fakes write to, and an env whose PATH finds the fake CLIs first.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dir, "..", "..");
export const FAKES_DIR = join(REPO_ROOT, "fakes");
export const BUN_DIR = join(REPO_ROOT, "node_modules", ".bin");

export interface Sandbox {
  root: string;
  home: string;
  configPath: string;
  dbPath: string;
  projects: string;
  repo: string;
  records: string;
  env: Record<string, string>;
  writeConfig(text: string): string;
  recordings(cli?: string): Recording[];
  cleanup(): void;
}

export interface Recording {
  cli: string;
  pid: number;
  pgid?: number;
  argv: string[];
  stdin: string;
  env: Record<string, string>;
  cwd: string;
  scenario: string;
}

export function makeSandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "orch-")));
  chmodSync(root, 0o700);
  const home = join(root, "home");
  const configDir = join(home, ".config", "orchestrate");
  const projects = join(home, "Projects");
  const repo = join(projects, "repo");
  const records = join(root, "records");
  for (const dir of [configDir, repo, records, join(home, ".codex")]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  freshRepo(repo);
  signIn(home);
  const configPath = join(configDir, "config.yaml");
  const dbPath = join(root, "state", "orchestrate.db");
  const env: Record<string, string> = {
    PATH: `${FAKES_DIR}:${BUN_DIR}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    CODEX_HOME: join(home, ".codex"),
    TMPDIR: tmpdir(),
    ORCHESTRATE_CONFIG: configPath,
    ORCHESTRATE_DB: dbPath,
    ORCHESTRATE_ROOTS: projects,
    FAKE_RECORD_DIR: records,
    // The fakes replay the real retry schedules (seconds to minutes); 20× faster keeps their order.
    FAKE_RETRY_SCALE: "0.05",
    ORCHESTRATE_LOG_LEVEL: "1",
    ...extraEnv,
  };
  return {
    root,
    home,
    configPath,
    dbPath,
    projects,
    repo,
    records,
    env,
    writeConfig(text: string) {
      writeFileSync(configPath, text, { mode: 0o600 });
      chmodSync(configPath, 0o600);
      return configPath;
    },
    recordings(cli?: string) {
      return readdirSync(records)
        .filter((f) => f.endsWith(".json") && (!cli || f.startsWith(`${cli}-`)))
        .map((f) => JSON.parse(readFileSync(join(records, f), "utf8")) as Recording)
        .sort((a, b) => ((a as unknown as { at: number }).at ?? 0) - ((b as unknown as { at: number }).at ?? 0));
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function git(cwd: string, ...args: string[]): string {
  const out = Bun.spawnSync(["git", ...args], {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" },
  });
  if (out.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${out.stderr.toString()}`);
  return out.stdout.toString();
}

/**
 * Signed in where each strict fake looks, the way its CLI's own login leaves it: codex's auth.json
 * (`codex login --with-api-key`), claude's .credentials.json (`/login`), opencode's auth.json
 * (`opencode auth login`) for the providers the tests' agents use.
 */
function signIn(home: string): void {
  // gemini: OAuth selected in its settings, with the cached credentials it then needs; copilot:
  // the GitHub CLI's stored login it falls back to; community grok: the key `grok -k` saves.
  mkdirSync(join(home, ".gemini"), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "oauth-personal" } } }), { mode: 0o600 });
  writeFileSync(
    join(home, ".gemini", "oauth_creds.json"),
    JSON.stringify({ access_token: "ya29.dummy", refresh_token: "1//dummy", token_type: "Bearer", expiry_date: 4102444800000 }),
    { mode: 0o600 },
  );
  mkdirSync(join(home, ".config", "gh"), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".config", "gh", "hosts.yml"), "github.com:\n    user: fake\n    oauth_token: gho_dummy\n    git_protocol: https\n", {
    mode: 0o600,
  });
  mkdirSync(join(home, ".grok"), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".grok", "user-settings.json"), JSON.stringify({ apiKey: "xai-dummy", defaultModel: "grok-code-fast-1" }), { mode: 0o600 });
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-dummy-1234567890" }), { mode: 0o600 });
  mkdirSync(join(home, ".claude"), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(home, ".claude", ".credentials.json"),
    JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat-dummy", refreshToken: "dummy", expiresAt: 4102444800000 } }),
    { mode: 0o600 },
  );
  const opencode = join(home, ".local", "share", "opencode");
  mkdirSync(opencode, { recursive: true, mode: 0o700 });
  const key = (k: string) => ({ type: "api", key: k });
  const providers = ["openai", "anthropic", "openrouter", "google", "deepseek", "groq", "xai", "mistral", "github-copilot"];
  writeFileSync(join(opencode, "auth.json"), JSON.stringify(Object.fromEntries(providers.map((p) => [p, key("dummy")]))), { mode: 0o600 });
}

let template: string | undefined;

/**
 * A committed repo at `dir` — `git init`, a README and a .gitignore ignoring ignored/ — copied
 * from one made once per process: the four git processes it takes were most of what a sandbox
 * cost. The copy's index no longer matches its files' inodes and times, and `git apply --index`
 * (what a host does with a workflow's patch) refuses a file whose index entry is stale, so the
 * index is refreshed: one git process instead of four.
 */
export function freshRepo(dir: string): string {
  template ??= makeTemplateRepo();
  cpSync(template, dir, { recursive: true });
  git(dir, "update-index", "-q", "--refresh");
  return dir;
}

function makeTemplateRepo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "orch-repo-")));
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  const repo = join(root, "repo");
  mkdirSync(repo, { mode: 0o700 });
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "# demo\n");
  writeFileSync(join(repo, ".gitignore"), "ignored/\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  return repo;
}
