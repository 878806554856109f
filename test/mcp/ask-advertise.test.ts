/** tools/list narrows ask's input schema to the config: the capability enum and the configured limits (seed 002). */
import { afterEach, describe, expect, test } from "bun:test";
import { activeTools } from "../../src/mcp/tools/index.ts";
import { wireTool } from "../../src/mcp/tools/wire.ts";
import { makeSandbox, type Sandbox } from "../../fakes/lib/sandbox.ts";

let box: Sandbox | undefined;
afterEach(() => {
  box?.cleanup();
  box = undefined;
});

type Props = Record<string, { enum?: string[]; maxLength?: number; maximum?: number; anyOf?: { type?: string; maxLength?: number }[] }>;

function advertised(config: string): { names: string[]; props: Props } {
  box = makeSandbox();
  box.writeConfig(config);
  const tools = activeTools(box.env);
  const ask = tools.find((t) => t.name === "ask");
  const props = ask ? (wireTool(ask).inputSchema as { properties: Props }).properties : {};
  return { names: tools.map((t) => t.name), props };
}

describe("ask as tools/list shows it", () => {
  test("the unified block: the names that have deployments as an enum; limits as configured, defaults otherwise", () => {
    const { names, props } = advertised(
      "ask:\n  capabilities:\n    coding: { deployments: [{ model: anthropic/x }] }\n    empty: { deployments: [] }\n  limits: { maxSchemaChars: 2000, maxOutputTokens: 512 }\n",
    );
    expect(names).toContain("list_capabilities");
    expect(props.capability?.enum).toEqual(["coding"]);
    expect(props.response_schema?.anyOf?.find((a) => a.type === "string")?.maxLength).toBe(2000);
    expect(props.max_output_tokens?.maximum).toBe(512);
    expect(props.prompt?.maxLength).toBe(200_000);
  });

  test("a seed 002 file: its declared capabilities that a deployment serves, its snake_case limits", () => {
    const { props } = advertised(
      "capabilities:\n  coding: c\n  fast: f\n  unserved: u\nmodel_list:\n  - { model_name: coding, litellm_params: { model: anthropic/x } }\n  - { model_name: fast, litellm_params: { model: anthropic/y } }\nlimits:\n  max_schema_chars: 3000\n",
    );
    expect(props.capability?.enum).toEqual(["coding", "fast"]);
    expect(props.response_schema?.anyOf?.find((a) => a.type === "string")?.maxLength).toBe(3000);
  });

  test("no capabilities, no ask tools; a limit the config would refuse is advertised as the default", () => {
    expect(advertised("agents: {}\n").names).not.toContain("ask");
    expect(
      advertised("ask:\n  capabilities: { c: { deployments: [{ model: anthropic/x }] } }\n  limits: { maxContextChars: 9000000 }\n").props.context?.maxLength,
    ).toBe(1_000_000);
  });
});
