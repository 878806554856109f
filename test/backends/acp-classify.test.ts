/** How an ACP run's records read as a failure: what the program did decides, not where it stopped. */
import { describe, expect, test } from "bun:test";
import { acpLine, acpSpeaker, type AcpRecord } from "../../src/backends/acp/index.ts";

const speaker = acpSpeaker(undefined);
const classify = (records: AcpRecord[]) =>
  speaker.classify({ exitCode: 0, signal: null, events: records.flatMap((r) => speaker.parse(acpLine(r))), stderrTail: "", rawStdoutTail: "" });

describe("ACP failures by phase", () => {
  test("no answer to initialize: not installed", () => {
    expect(classify([{ acp: "error", phase: "initialize", message: "connection closed" }])).toBe("not_installed");
  });
  test("a refused session/load after initialize answered is the attempt's failure, not a missing program", () => {
    expect(
      classify([
        { acp: "init", protocolVersion: 1 },
        { acp: "error", phase: "session", code: -32603, message: "Internal error", data: '{"details":"No previous sessions found for this project."}' },
      ]),
    ).toBe("task_failed");
  });
  test("-32000 at session/new stays not signed in", () => {
    expect(
      classify([
        { acp: "init", protocolVersion: 1 },
        { acp: "error", phase: "session", code: -32000, message: "Authentication required" },
      ]),
    ).toBe("auth");
  });
});
