import { describe, expect, it } from "vitest";
import { auditText, fieldChanges } from "./audit";

describe("audit field diff", () => {
  it("lists only the fields that changed, as text", () => {
    expect(fieldChanges({ role: "annotator", name: "A" }, { role: "reviewer", name: "A" })).toEqual([
      { field: "role", kind: "changed", before: "annotator", after: "reviewer" },
    ]);
    expect(fieldChanges({ box: [1, 2, 3, 4] }, { box: [1, 2, 3, 5] })).toEqual([
      { field: "box", kind: "changed", before: "[1,2,3,4]", after: "[1,2,3,5]" },
    ]);
  });

  it("shows set and removed fields against a dash", () => {
    expect(fieldChanges(null, { email: "a@b", role: "annotator" })).toEqual([
      { field: "email", kind: "set", before: "—", after: "a@b" },
      { field: "role", kind: "set", before: "—", after: "annotator" },
    ]);
    expect(fieldChanges({ note: "x" }, {})).toEqual([{ field: "note", kind: "removed", before: "x", after: "—" }]);
  });

  it("compares whole values that are not objects, and keeps markup as plain text", () => {
    expect(fieldChanges("not json {", { verdict: "harmful" })).toEqual([
      { field: "", kind: "changed", before: "not json {", after: '{"verdict":"harmful"}' },
    ]);
    expect(fieldChanges(null, "<img src=x onerror=alert(1)>")).toEqual([
      { field: "", kind: "set", before: "—", after: "<img src=x onerror=alert(1)>" },
    ]);
    expect(fieldChanges(null, null)).toEqual([]);
    expect(fieldChanges({ revokedAt: null }, { revokedAt: "now" })).toEqual([
      { field: "revokedAt", kind: "set", before: "—", after: "now" },
    ]);
    expect(auditText({ a: 1 })).toBe('{"a":1}');
  });
});
