// Adjudication (issue 26 item 3) through the API: two people correct one trajectory independently, a
// reviewer sees both copies, takes the tap from one and the typed text from the other, edits a thought
// and approves; the trajectory holds the chosen values, the copies are untouched, the audit names the
// sources, and the export carries the chosen annotation with both copies as `annotations[]`.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdjudicationView } from "@/lib/domain/adjudication";
import type { StepAnnotation } from "@/lib/domain/annotation";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import type { TrajectoryView } from "@/lib/domain/views";
import type { Db } from "../db";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { blankPng, freshStudio } from "../testing/fixtures";
import { apiAs, ok, signUp } from "../testing/route-calls";

type Who = "admin" | "ann" | "bob" | "rev";

let db: Db;
let dir: string;
const tokens = {} as Record<Who, string>;
const api = apiAs(tokens);
let overlappedId: string;
let plainId: string;

const parts = (text: string) => ({ state: "The search page is open.", nextAction: text, purpose: "To find the drink.", text });
const tap = (at: [number, number], box: [number, number, number, number], thought: string): StepAnnotation => ({
  thought: parts(thought),
  clearAction: "Tap the search box.",
  toolCall: { action: "click", coordinate: at },
  box,
  verdict: "corrected",
});
const typing = (text: string, thought: string): StepAnnotation => ({
  thought: parts(thought),
  clearAction: "Type the drink's name.",
  toolCall: { action: "type", text },
  box: null,
  verdict: "good",
});
const ANSWERS = {
  ann: { steps: [tap([300, 1000], [100, 900, 700, 1100], "I tap the search box."), typing("coffe", "I type coffee.")], outcome: "success" },
  bob: { steps: [tap([650, 300], [500, 200, 800, 400], "I tap the top bar."), typing("coffee", "I type the drink.")], outcome: "failure" },
} as const;

beforeAll(async () => {
  ({ db, dir } = await freshStudio());
  await signUp(
    db,
    [
      ["admin", "admin"],
      ["ann", "annotator"],
      ["bob", "annotator"],
      ["rev", "reviewer"],
    ] as const,
    tokens,
    "adjudicate",
  );
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (goal: string) =>
    JSON.stringify({
      goal,
      app: "淘宝",
      steps: [
        { action_content: { action: "click", coordinate: [400, 1000] }, screenshot: "s.png" },
        { action_content: { action: "type", text: "cofee" }, screenshot: "s.png" },
      ],
    });
  await writeFile(path.join(dir, "d.jsonl"), [line("Find coffee"), line("Find tea")].join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  overlappedId = (await db.trajectory.findFirstOrThrow({ where: { instruction: "Find coffee" } })).id;
  plainId = (await db.trajectory.findFirstOrThrow({ where: { instruction: "Find tea" } })).id;
  await ok(api("admin", "POST", "overlap", { body: { trajectoryIds: [overlappedId], copies: 2 } }));
  // ann and bob each take their copy (the plain trajectory is older, so it goes first: give it away).
  await db.trajectory.update({ where: { id: plainId }, data: { status: "approved" } });
  for (const who of ["ann", "bob"] as const) {
    const { id } = await ok<{ id: string }>(api(who, "POST", "tasks/next"));
    const view = await ok<TrajectoryView>(api(who, "GET", "trajectories/[id]", { params: { id } }));
    for (const [i, s] of view.steps.entries())
      await ok(api(who, "PUT", "steps/[id]/annotation", { params: { id: s.id }, body: { ...ANSWERS[who].steps[i]!, version: s.version } }));
    await ok(
      api(who, "PUT", "trajectories/[id]/annotation", {
        params: { id },
        body: { outcome: ANSWERS[who].outcome, isDiscarded: false, cutAfter: null, version: view.version },
      }),
    );
    await ok(api(who, "POST", "trajectories/[id]/submit", { params: { id } }));
  }
});

describe("adjudication", () => {
  let view: AdjudicationView;

  it("shows the reviewer every copy with its person's values; an annotator may not look", async () => {
    expect((await api("ann", "GET", "trajectories/[id]/adjudication", { params: { id: overlappedId } })).status).toBe(403);
    expect((await api("rev", "GET", "trajectories/[id]/adjudication", { params: { id: plainId } })).status).toBe(409);
    view = await ok<AdjudicationView>(api("rev", "GET", "trajectories/[id]/adjudication", { params: { id: overlappedId } }));
    expect(view.trajectory.id).toBe(overlappedId);
    const byPerson = new Map(view.copies.map((c) => [c.annotator, c]));
    expect([...byPerson.keys()].sort()).toEqual(["ann@example.com", "bob@example.com"]);
    for (const who of ["ann", "bob"] as const) {
      const c = byPerson.get(`${who}@example.com`)!;
      expect(c.status).toBe("submitted");
      expect(c.outcome).toBe(ANSWERS[who].outcome);
      expect(c.steps.map(({ index: _i, ...s }) => s)).toEqual(ANSWERS[who].steps);
    }
  });

  it("approves the values chosen field by field; the copies stay as they were; a stale or incomplete choice changes nothing", async () => {
    const ann = view.copies.find((c) => c.annotator === "ann@example.com")!;
    const bob = view.copies.find((c) => c.annotator === "bob@example.com")!;
    // ann's tap and box, bob's typed text with an edited thought, ann's outcome.
    const chosen: StepAnnotation[] = [
      ANSWERS.ann.steps[0],
      { ...ANSWERS.bob.steps[1], thought: parts("I type coffee into the search box.") },
    ];
    const body = {
      version: view.trajectory.version,
      trajectory: { outcome: "success", isDiscarded: false, cutAfter: null },
      steps: chosen,
      sources: [
        { toolCall: ann.copyId, box: ann.copyId, thought: ann.copyId },
        { toolCall: bob.copyId, thought: "edited" },
      ],
    };
    const before = await db.step.findMany({ where: { trajectoryId: overlappedId }, orderBy: { index: "asc" } });
    const stale = await api("rev", "POST", "trajectories/[id]/adjudication", {
      params: { id: overlappedId },
      body: { ...body, version: 99 },
    });
    expect(stale.status).toBe(409);
    const incomplete = await api("rev", "POST", "trajectories/[id]/adjudication", {
      params: { id: overlappedId },
      body: { ...body, steps: [{ ...chosen[0]!, verdict: "unreviewed" }, chosen[1]] },
    });
    expect(incomplete.status).toBe(422);
    expect(await incomplete.text()).toContain(overlappedId);
    expect(await db.step.findMany({ where: { trajectoryId: overlappedId }, orderBy: { index: "asc" } })).toEqual(before);

    const after = await ok<TrajectoryView>(api("rev", "POST", "trajectories/[id]/adjudication", { params: { id: overlappedId }, body }));
    expect(after.status).toBe("approved");
    expect(after.outcome).toBe("success");
    expect(
      after.steps.map((s) => ({ thought: s.thought, clearAction: s.clearAction, toolCall: s.toolCall, box: s.box, verdict: s.verdict })),
    ).toEqual(chosen);
    // The copies are untouched alternatives.
    const again = await ok<AdjudicationView>(api("rev", "GET", "trajectories/[id]/adjudication", { params: { id: overlappedId } }));
    expect(again.copies.find((c) => c.copyId === bob.copyId)!.steps.map(({ index: _i, ...s }) => s)).toEqual(ANSWERS.bob.steps);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "trajectory.adjudicate", entityId: overlappedId } });
    const recorded = JSON.parse(audit.afterJson!) as { sources: unknown; alternatives: string[] };
    expect(recorded.sources).toEqual(body.sources);
    expect(recorded.alternatives.sort()).toEqual([ann.copyId, bob.copyId].sort());
  });

  it("the export trains on the chosen values and carries both copies as annotations[]; other work has none", async () => {
    const out = path.join(dir, "export");
    await exportDataset({ status: "approved", outDir: out, db });
    const records = (await readFile(path.join(out, "trajectories.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as CanonicalTrajectory);
    expect(records).toHaveLength(2);
    const adjudicated = records.find((r) => r.id === overlappedId)!;
    expect(adjudicated.steps.map((s) => s.toolCall)).toEqual([
      { action: "click", coordinate: [300, 1000] },
      { action: "type", text: "coffee" },
    ]);
    expect(adjudicated.annotations?.map((a) => [a.annotator, a.outcome, a.steps.map((s) => s.toolCall)]).sort()).toEqual([
      ["ann@example.com", "success", ANSWERS.ann.steps.map((s) => s.toolCall)],
      ["bob@example.com", "failure", ANSWERS.bob.steps.map((s) => s.toolCall)],
    ]);
    expect(records.find((r) => r.id === plainId)!.annotations).toBeUndefined();
    // The trainer formats hold the chosen tap only.
    const r1 = await readFile(path.join(out, "mobile-r1", "data.jsonl"), "utf8");
    expect(r1).toContain("300");
    expect(r1).not.toMatch(/\b650\b/);
  });
});
