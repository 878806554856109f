import pkg from "../package.json" with { type: "json" };

/** Embedded at compile time: the bundler inlines package.json's version. */
export const VERSION: string = pkg.version;
