import { describe, expect, it } from "vitest";
import { isPlainPath, safeNextPath, sameOriginTarget } from "./safe-path";

const STUDIO = "http://127.0.0.1:3000";

describe("safeNextPath", () => {
  it("keeps paths on this studio", () => {
    expect(safeNextPath("/trajectories/abc?step=3#x")).toBe("/trajectories/abc?step=3#x");
    expect(safeNextPath(["/import", "/other"])).toBe("/import");
    expect(safeNextPath("/a/./b/../c")).toBe("/a/c");
  });

  // The variants of issue 11 (all answered `location: //evil.example` before) and their relatives.
  it.each([
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/%2e%2e//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/././/evil.example",
    "/.%2f/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/.\\/evil.example",
    "/\\/evil.example",
    "/%5c/evil.example",
    "/\t/evil.example",
    "/.\n//evil.example",
    "https://evil.example",
    "evil.example",
    "",
    undefined,
  ])("never leads off the studio: %j", (n) => {
    const r = safeNextPath(n as string | undefined);
    expect(isPlainPath(r)).toBe(true);
    expect(r.startsWith("//")).toBe(false);
    // Whatever comes back, a browser resolving it against the studio stays on the studio.
    expect(new URL(r, STUDIO).origin).toBe(STUDIO);
  });

  it("refuses the dot-segment variants outright rather than guessing what was meant", () => {
    for (const n of ["/.//evil.example", "/..//evil.example", "/%2e//evil.example", "/a/..//evil.example"])
      expect(safeNextPath(n)).toBe("/trajectories");
  });
});

describe("sameOriginTarget", () => {
  it("keeps a plain path and refuses anything a browser would take off-site", () => {
    expect(sameOriginTarget("/tasks?x=1", STUDIO)).toBe("/tasks?x=1");
    for (const n of ["//evil.example", "/\\evil.example", "/.//evil.example", "https://evil.example/"])
      expect(sameOriginTarget(n, STUDIO)).toBe("/trajectories");
  });
});
