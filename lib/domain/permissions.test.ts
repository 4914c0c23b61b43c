import { describe, expect, it } from "vitest";
import { can, type Actor } from "./permissions";

const admin: Actor = { id: "a", email: "a@x", name: "A", role: "admin" };
const reviewer: Actor = { id: "r", email: "r@x", name: "R", role: "reviewer" };
const ann: Actor = { id: "n", email: "n@x", name: "N", role: "annotator" };
const mine = { assigneeId: "n", status: "in_progress" };
const theirs = { assigneeId: "someone-else", status: "in_progress" };

describe("permission table", () => {
  it("lets annotators read and edit only their assigned trajectories", () => {
    expect(can(ann, "trajectory.read", mine)).toBe(true);
    expect(can(ann, "trajectory.annotate", mine)).toBe(true);
    expect(can(ann, "trajectory.read", theirs)).toBe(false);
    expect(can(ann, "trajectory.annotate", theirs)).toBe(false);
    expect(can(ann, "trajectory.review", mine)).toBe(false);
  });
  it("lets only reviewers and admins review", () => {
    expect(can(reviewer, "trajectory.review")).toBe(true);
    expect(can(admin, "trajectory.review")).toBe(true);
    expect(can(reviewer, "trajectory.annotate", theirs)).toBe(false);
    expect(can(reviewer, "trajectory.read", theirs)).toBe(true);
  });
  it("hides a copy nobody has started from reviewers (blind work), not from admins or its annotator", () => {
    const untouched = { assigneeId: "n", status: "new", copyKind: "overlap" };
    expect(can(reviewer, "trajectory.read", untouched)).toBe(false);
    expect(can(reviewer, "trajectory.read", { ...untouched, copyKind: "gold" })).toBe(false);
    expect(can(admin, "trajectory.read", untouched)).toBe(true);
    expect(can(ann, "trajectory.read", untouched)).toBe(true);
    for (const status of ["in_progress", "submitted", "approved", "rejected"])
      expect(can(reviewer, "trajectory.read", { ...untouched, status }), status).toBe(true);
    expect(can(reviewer, "trajectory.read", { assigneeId: null, status: "new", copyKind: null })).toBe(true);
  });
  it("keeps import, export, assignment and people to admins", () => {
    for (const action of ["import.run", "export.run", "trajectory.assign", "people.manage", "audit.read", "tokens.manage-all"] as const) {
      expect([can(admin, action), can(reviewer, action), can(ann, action)]).toEqual([true, false, false]);
    }
  });
});
