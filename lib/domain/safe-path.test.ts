import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-path";

describe("safeNextPath", () => {
  it("keeps paths on this studio", () => {
    expect(safeNextPath("/trajectories/abc?step=3#x")).toBe("/trajectories/abc?step=3#x");
    expect(safeNextPath(["/import", "/other"])).toBe("/import");
  });
  it.each(["//evil.com", "/\\evil.com/x", "/\t/evil.com", "https://evil.com", "evil.com", "", "/%0a/evil", undefined])("refuses %j", (n) => {
    const r = safeNextPath(n as string | undefined);
    expect(r === "/trajectories" || r.startsWith("/%0a")).toBe(true);
    expect(new URL(r, "http://studio.invalid").origin).toBe("http://studio.invalid");
  });
});
