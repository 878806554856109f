import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SCHEMA_VERSION } from "../../src/store/migrations/index.ts";
import { mustOpen, tmpStorePath } from "./tmp.ts";
import { rewindSchema, UNDOABLE } from "./rewind.ts";

test("every migration after 004 has an undo, so old-schema tests keep starting from a real old store", () => {
  const expected = Array.from({ length: SCHEMA_VERSION - 4 }, (_, i) => i + 5);
  expect([...UNDOABLE].sort((a, b) => a - b)).toEqual(expected);
});

test("a store rewound to 4 and opened again is back at the latest schema", () => {
  const path = tmpStorePath();
  mustOpen(path).close();
  const raw = new Database(path);
  rewindSchema(raw, 4);
  raw.close();
  const store = mustOpen(path);
  expect(store.db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version).toBe(SCHEMA_VERSION);
  store.close();
});
