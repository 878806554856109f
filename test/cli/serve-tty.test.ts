/** `orchestrate` at a terminal still serves MCP, and tells the person how to register it. */
import { afterEach, describe, expect, test } from "bun:test";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";
import { KEY, spawnPty } from "../setup/pty.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

describe("serve at a terminal", () => {
  test("prints how to register with each client, with this binary's absolute path", async () => {
    box = makeSandbox({});
    const pty = spawnPty([], box.env);
    try {
      await pty.expect("Register it with your client");
      // One line per client, in the registry's order.
      await pty.expect("codex mcp add orchestrate");
      await pty.expect(/claude mcp add -s user orchestrate -- \/\S+/);
      await pty.expect("Waiting for an MCP client");
    } finally {
      pty.send(KEY.ctrlC);
      pty.kill();
    }
  });
});
