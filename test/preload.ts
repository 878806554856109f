/**
 * Loaded before every test file (bunfig.toml [test].preload). bunfig's own [test].timeout is
 * ignored by Bun 1.4, so plain `bun test` would fall back to 5 s per test — too short for the
 * end-to-end tests that start servers and CLIs. `npm test` passes --timeout as well.
 */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
