// Gold tasks (issue 26 item 4) through the API: an admin marks an approved trajectory gold and sets a
// rate; every fourth "Start next task" of each annotator is then a fresh copy of it, started from the
// model's output and indistinguishable in what the API answers them; each person's accuracy against
// the gold answer per field is on the dashboard (and its CSV), and the one below the threshold is flagged.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import type { StepAnnotation } from "@/lib/domain/annotation";
import type { GoldAccuracy } from "@/lib/domain/gold";
import type { TrajectoryPage, TrajectoryView } from "@/lib/domain/views";
import type { Db } from "../db";
import { importFile } from "../import";
import { blankPng, freshStudio } from "../testing/fixtures";
import { apiAs, ok, signUp } from "../testing/route-calls";

type Who = "admin" | "ann" | "bob" | "gina" | "rev";

let db: Db;
const tokens = {} as Record<Who, string>;
const api = apiAs(tokens);
let goldId: string;
let notApprovedId: string;

const GOLD_BOX: [number, number, number, number] = [100, 900, 700, 1100];
const parts = (text: string) => ({ state: "The search page is open.", nextAction: text, purpose: "To find the drink.", text });
const TAP = "I tap the search box to look for coffee.";
const TYPE = "I type the drink's name into the search box.";
const step = (at: [number, number], box: typeof GOLD_BOX, verdict: StepAnnotation["verdict"]): StepAnnotation => ({
  thought: parts(TAP),
  clearAction: "Tap the search box.",
  toolCall: { action: "click", coordinate: at },
  box,
  verdict,
});
const typing = (text: string, verdict: StepAnnotation["verdict"]): StepAnnotation => ({
  thought: parts(TYPE),
  clearAction: "Type the drink's name.",
  toolCall: { action: "type", text },
  box: null,
  verdict,
});

/** The gold answer, and what each annotator writes when a task turns out to be the gold one. */
const GOLD = [step([200, 1000], GOLD_BOX, "corrected"), typing("coffee", "corrected")];
const ANSWERS = {
  // 400 px from the gold point, inside the gold box; "Coffee" is "coffee" normalised: right on every field.
  ann: [step([600, 1050], GOLD_BOX, "corrected"), typing("Coffee", "corrected")],
  // Another target, verdict "good" where gold says corrected, another text.
  bob: [step([900, 2000], [800, 1900, 1000, 2100], "good"), typing("tea", "corrected")],
};

/** Take the next task, answer it (ANSWERS on any task; only the gold one is scored) and submit it. */
async function takeAndSubmit(who: "ann" | "bob"): Promise<TrajectoryView> {
  const { id } = await ok<{ id: string | null }>(api(who, "POST", "tasks/next"));
  expect(id).not.toBeNull();
  const view = await ok<TrajectoryView>(api(who, "GET", "trajectories/[id]", { params: { id: id! } }));
  for (const [i, s] of view.steps.entries())
    await ok(api(who, "PUT", "steps/[id]/annotation", { params: { id: s.id }, body: { ...ANSWERS[who][i]!, version: s.version } }));
  await ok(
    api(who, "PUT", "trajectories/[id]/annotation", {
      params: { id: id! },
      body: { outcome: "success", isDiscarded: false, cutAfter: null, version: view.version },
    }),
  );
  await ok(api(who, "POST", "trajectories/[id]/submit", { params: { id: id! } }));
  return view;
}

beforeAll(async () => {
  let dir: string;
  ({ db, dir } = await freshStudio());
  await signUp(
    db,
    [
      ["admin", "admin"],
      ["ann", "annotator"],
      ["bob", "annotator"],
      ["gina", "annotator"],
      ["rev", "reviewer"],
    ] as const,
    tokens,
    "gold",
  );
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (k: number) =>
    JSON.stringify({
      goal: `Find a drink ${k}`,
      app: "淘宝",
      steps: [
        { action_content: { action: "click", coordinate: [400, 1000] }, screenshot: "s.png" },
        { action_content: { action: "type", text: "cofee" }, screenshot: "s.png" },
      ],
    });
  await writeFile(path.join(dir, "d.jsonl"), Array.from({ length: 8 }, (_, k) => line(k)).join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", project: "drinks", db });
  // Trajectory 0 was corrected by gina and approved: the answer key. Trajectory 1 is still gina's, in progress.
  const gina = await db.user.findUniqueOrThrow({ where: { email: "gina@example.com" } });
  const gold = await db.trajectory.findFirstOrThrow({ where: { instruction: "Find a drink 0" }, include: { steps: true } });
  for (const s of gold.steps) {
    const a = GOLD[s.index]!;
    await db.step.update({
      where: { id: s.id },
      data: {
        thoughtState: a.thought.state,
        thoughtNext: a.thought.nextAction,
        thoughtPurpose: a.thought.purpose,
        thought: a.thought.text,
        clearAction: a.clearAction,
        toolCallJson: JSON.stringify(a.toolCall),
        boxJson: a.box ? JSON.stringify(a.box) : null,
        verdict: a.verdict,
        version: 2,
      },
    });
  }
  await db.trajectory.update({ where: { id: gold.id }, data: { status: "approved", outcome: "success", assigneeId: gina.id } });
  goldId = gold.id;
  const other = await db.trajectory.findFirstOrThrow({ where: { instruction: "Find a drink 1" } });
  await db.trajectory.update({ where: { id: other.id }, data: { status: "in_progress", assigneeId: gina.id } });
  notApprovedId = other.id;
});

describe("gold tasks", () => {
  it("an admin marks approved work gold and sets the rate; work not approved is refused and nothing changes", async () => {
    const refused = await api("admin", "POST", "gold", { body: { trajectoryIds: [goldId, notApprovedId] } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(notApprovedId);
    expect(await db.trajectory.count({ where: { isGold: true } })).toBe(0);
    expect((await api("ann", "POST", "gold", { body: { trajectoryIds: [goldId] } })).status).toBe(403);
    expect(await ok(api("admin", "POST", "gold", { body: { trajectoryIds: [goldId] } }))).toEqual({ changed: 1 });
    expect(await ok(api("admin", "PUT", "gold/rate", { body: { project: "drinks", rate: 0.25 } }))).toEqual({ rate: 0.25 });
  });

  it("every fourth take is a fresh copy of the gold task, started from the model's output, with no marker", async () => {
    const views: Record<"ann" | "bob", TrajectoryView[]> = { ann: [], bob: [] };
    for (let i = 0; i < 4; i++) for (const who of ["ann", "bob"] as const) views[who].push(await takeAndSubmit(who));
    for (const who of ["ann", "bob"] as const) {
      const rows = await db.trajectory.findMany({ where: { id: { in: views[who].map((v) => v.id) } } });
      const kindOf = (id: string) => rows.find((r) => r.id === id)!.copyKind;
      expect(
        views[who].map((v) => kindOf(v.id)),
        who,
      ).toEqual([null, null, null, "gold"]);
      const gold = views[who][3]!;
      const ordinary = views[who][0]!;
      expect(rows.find((r) => r.id === gold.id)!.copyOfId).toBe(goldId);
      // The model's output, never the answer key.
      expect(gold.steps.map((s) => [s.toolCall, s.box, s.verdict])).toEqual([
        [{ action: "click", coordinate: [400, 1000] }, null, "unreviewed"],
        [{ action: "type", text: "cofee" }, null, "unreviewed"],
      ]);
      // Nothing tells it apart: the same fields as ordinary work, no gold id or word, the same shape in the task list.
      expect(Object.keys(gold).sort()).toEqual(Object.keys(ordinary).sort());
      expect(gold.steps.map((s) => Object.keys(s).sort())).toEqual(ordinary.steps.map((s) => Object.keys(s).sort()));
      expect(JSON.stringify(gold)).not.toMatch(new RegExp(`${goldId}|gold`, "i"));
      const list = await ok<{ tasks: Record<string, unknown>[] }>(api(who, "GET", "tasks"));
      expect(JSON.stringify(list)).not.toMatch(new RegExp(`${goldId}|gold`, "i"));
      const shapes = new Set(list.tasks.map((t) => Object.keys(t).sort().join()));
      expect(shapes.size).toBe(1);
    }
    // The answer key was not touched by anyone's work.
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: goldId } })).status).toBe("approved");
    const keySteps = await db.step.findMany({ where: { trajectoryId: goldId }, orderBy: { index: "asc" } });
    expect(keySteps.map((s) => JSON.parse(s.toolCallJson) as unknown)).toEqual(GOLD.map((s) => s.toolCall));
  });

  it("the dashboard shows each person's accuracy against gold per field and flags the one below the threshold", async () => {
    expect((await api("ann", "GET", "dashboard/gold")).status).toBe(403);
    const g = await ok<GoldAccuracy>(api("rev", "GET", "dashboard/gold"));
    expect(g.threshold).toBe(0.8);
    const rate = (agreed: number, compared: number) => ({ compared, agreed, rate: agreed / compared });
    // Compared: both steps' action type, verdict, thought; the click's point and box; the typed text; outcome, cut, discard.
    const byField = (email: string) =>
      Object.fromEntries(g.people.find((p) => p.email === email)!.fields.map(({ field, ...x }) => [field, x]));
    expect(g.people.map((p) => [p.email, p.goldTasks, p.accuracy, p.isFlagged])).toEqual([
      ["ann@example.com", 1, 1, false],
      ["bob@example.com", 1, 8 / 12, true],
    ]);
    expect(byField("ann@example.com")).toMatchObject({ point: rate(1, 1), box: rate(1, 1), text: rate(1, 1), verdict: rate(2, 2) });
    expect(byField("bob@example.com")).toEqual({
      actionType: rate(2, 2),
      point: rate(0, 1),
      box: rate(0, 1),
      text: rate(0, 1),
      verdict: rate(1, 2),
      thought: rate(2, 2),
      outcome: rate(1, 1),
      cut: rate(1, 1),
      discard: rate(1, 1),
    });
    // A lower threshold unflags bob.
    const lenient = await ok<GoldAccuracy>(api("rev", "GET", "dashboard/gold", { query: "?threshold=0.6" }));
    expect(lenient.people.map((p) => p.isFlagged)).toEqual([false, false]);
    // The CSV holds the same numbers.
    const csv = parse(await (await api("rev", "GET", "dashboard/tables/[table]", { params: { table: "gold-accuracy" } })).text(), {
      bom: true,
    }) as string[][];
    expect(csv[0]).toEqual(["email", "gold_tasks", "accuracy", "flagged", "field", "compared", "agreed", "rate"]);
    const bobPoint = csv.find((r) => r[0] === "bob@example.com" && r[4] === "point")!;
    expect(bobPoint.slice(1, 2).concat(bobPoint.slice(3))).toEqual(["1", "yes", "point", "1", "0", "0"]);
    expect(Number(bobPoint[2])).toBeCloseTo(8 / 12, 12);
  });

  it("the projects page lists each project's rate and gold tasks (the copies handed out are not gold tasks); admins only", async () => {
    expect((await api("rev", "GET", "gold/rate")).status).toBe(403);
    expect(await ok(api("admin", "GET", "gold/rate"))).toEqual({ projects: [{ project: "drinks", rate: 0.25, goldTasks: 1 }] });
    expect(await db.trajectory.count({ where: { copyKind: "gold" } })).toBe(2);
  });

  it("the list shows the admin the gold original, marked, and none of its copies; an annotator's gold copy has no mark", async () => {
    const admin = await ok<TrajectoryPage>(api("admin", "GET", "trajectories", { query: "?pageSize=200" }));
    expect(admin.total).toBe(8);
    expect(admin.rows.filter((r) => r.isGold).map((r) => r.id)).toEqual([goldId]);
    const ann = await ok<TrajectoryPage>(api("ann", "GET", "trajectories", { query: "?pageSize=200" }));
    expect(ann.total).toBe(4);
    expect(ann.rows.every((r) => !r.isGold && r.copies === 0)).toBe(true);
    // Unmarked, it is ordinary approved work again: no more gold copies are made of it.
    expect(await ok(api("admin", "POST", "gold", { body: { trajectoryIds: [goldId], isGold: false } }))).toEqual({ changed: 1 });
    expect(await ok(api("admin", "GET", "gold/rate"))).toEqual({ projects: [{ project: "drinks", rate: 0.25, goldTasks: 0 }] });
  });
});
