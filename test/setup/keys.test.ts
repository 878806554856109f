/** Terminal bytes → keys: every line ending is one Enter, so pasted lines are answers, in order. */
import { expect, test } from "bun:test";
import { decodeKeys, type Key } from "../../src/setup/keys.ts";
import { edit } from "../../src/setup/prompts.ts";

const kinds = (text: string) => decodeKeys(text).map((k) => (k.kind === "char" ? k.text : k.kind));

test("a paste with its newline, CRLF, and several lines in one write", () => {
  expect(kinds("gpt-5.5\n")).toEqual(["g", "p", "t", "-", "5", ".", "5", "enter"]);
  expect(kinds("a\r\nb\rc\n")).toEqual(["a", "enter", "b", "enter", "c", "enter"]);
  expect(kinds("\n\n")).toEqual(["enter", "enter"]);
});

test("arrows, backspace, Ctrl-C, a lone Escape; bracketed-paste markers and other sequences vanish", () => {
  expect(kinds("\x1b[A\x1b[B\x1bOC\x1b[D")).toEqual(["up", "down", "right", "left"]);
  expect(kinds("ab\x7f\b")).toEqual(["a", "b", "backspace", "backspace"]);
  expect(kinds("\x03")).toEqual(["cancel"]);
  expect(kinds("\x1b")).toEqual(["cancel"]);
  expect(kinds("\x1b[200~x\n\x1b[201~")).toEqual(["x", "enter"]);
  expect(kinds("\x1b[1;5C\t")).toEqual([]);
});

test("the line editor inserts at the cursor and deletes before it", () => {
  const keys: Key[] = [...decodeKeys("ac"), { kind: "left" }, ...decodeKeys("b"), { kind: "right" }, { kind: "backspace" }];
  let state = { buffer: "", cursor: 0 };
  for (const k of keys) state = edit(state.buffer, state.cursor, k);
  expect(state).toEqual({ buffer: "ab", cursor: 2 });
});
