/**
 * The projects-root question: orchestrate only works on directories inside the roots, and the
 * default ($HOME/Projects) is not where everyone keeps their work (issue 22: the first `run` from
 * elsewhere failed cwd_outside_roots). Offered: the default, the parent of the directory init runs
 * in, or directories typed by hand. The default writes no `roots:` key, so ORCHESTRATE_ROOTS and
 * the default keep working as documented.
 */
import { statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { select, text } from "./prompts.ts";

const DEFAULT = "\u0000default";
const TYPE = "\u0000type";

export interface RootsContext {
  home: string;
  cwd: string;
}

/** The roots to write; [] = the default. */
export async function askRoots(ctx: RootsContext): Promise<string[]> {
  const parent = dirname(ctx.cwd);
  const offerParent = parent !== "/" && parent !== ctx.home && parent !== join(ctx.home, "Projects");
  const options = [
    { value: DEFAULT, label: "~/Projects", hint: "the default" },
    ...(offerParent ? [{ value: parent, label: tilde(parent, ctx.home), hint: "the parent of this directory" }] : []),
    { value: TYPE, label: "Type directories", hint: "colon-separated, e.g. ~/code:~/work" },
  ];
  const picked = await select("Where do your projects live? orchestrate only works on directories inside these roots", options, DEFAULT);
  if (picked === DEFAULT) return [];
  if (picked !== TYPE) return [tilde(picked, ctx.home)];
  const typed = await text("Project roots (colon-separated)", { placeholder: "~/code:~/work", validate: (t) => rootsProblem(t, ctx.home) });
  return splitRoots(typed).map((r) => tilde(expand(r, ctx.home), ctx.home));
}

function splitRoots(typed: string): string[] {
  return typed
    .split(":")
    .map((r) => r.trim())
    .filter(Boolean);
}

export function rootsProblem(typed: string, home: string): string | undefined {
  const roots = splitRoots(typed);
  if (roots.length === 0) return "name at least one directory";
  for (const root of roots) {
    const path = expand(root, home);
    if (!isAbsolute(path)) return `${root} is not an absolute path (start it with / or ~/)`;
    if (resolve(path) === "/") return "/ is never accepted as a root: name the directories that hold your projects";
    if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return `${root} is not a directory here`;
  }
  return undefined;
}

function expand(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

function tilde(path: string, home: string): string {
  const abs = resolve(path);
  return abs === home ? "~" : abs.startsWith(`${home}/`) ? `~/${abs.slice(home.length + 1)}` : abs;
}
