// Overlap and agreement (issue 26 items 1 and 2) through the API, as people use it: an admin gives
// ten trajectories to three people independently, each person takes, corrects and submits their own
// copies with "Start next task", and the agreement figures equal a table computed by hand below,
// points 350 px apart inside one target box counting as agreement.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgreementReport, FieldFigure } from "@/lib/domain/agreement";
import type { StepAnnotation } from "@/lib/domain/annotation";
import type { TrajectoryView } from "@/lib/domain/views";
import type { Db } from "../db";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { blankPng, freshStudio } from "../testing/fixtures";
import { apiAs, ok, signUp } from "../testing/route-calls";

type Who = "admin" | "ann" | "bob" | "cat" | "rev";

let db: Db;
let dir: string;
const tokens = {} as Record<Who, string>;
const api = apiAs(tokens);

const BOX: [number, number, number, number] = [100, 900, 700, 1100];
const FAR_BOX: [number, number, number, number] = [800, 1900, 1000, 2100];
const thought = (text: string) => ({ state: "The search page is open.", nextAction: text, purpose: "To find the drink.", text });
const TAP_THOUGHT = "I tap the search box to look for coffee.";

/**
 * What each person writes, per trajectory k (0..9): step 0 a click with its target box, step 1 the
 * typed text; and the outcome. The differences are the hand-computed table's causes:
 * - bob taps 350 px right of ann, inside the same box: point and box agree.
 * - cat taps elsewhere (another box) on k = 8, 9, and writes another thought on k = 8.
 * - bob types "  coffee " (same as ann's "Coffee" once normalised); cat types "tea" on k = 5..8 and waits on k = 9.
 * - cat marks that last step harmful; bob says failure on k = 3.
 */
function answer(who: "ann" | "bob" | "cat", k: number): { steps: StepAnnotation[]; outcome: "success" | "failure" } {
  const tapAt: [number, number] = who === "ann" ? [300, 1000] : who === "bob" ? [650, 1050] : k >= 8 ? [900, 2000] : [310, 1000];
  const tapBox = who === "cat" && k >= 8 ? FAR_BOX : BOX;
  const tap: StepAnnotation = {
    thought: thought(who === "cat" && k === 8 ? "Open the settings menu to change the language." : TAP_THOUGHT),
    clearAction: "Tap the search box.",
    toolCall: { action: "click", coordinate: tapAt },
    box: tapBox,
    verdict: "good",
  };
  const typed = who === "ann" ? "Coffee" : who === "bob" ? "  coffee " : k < 5 ? "coffee" : "tea";
  const second: StepAnnotation =
    who === "cat" && k === 9
      ? {
          thought: thought("I wait for the results to load."),
          clearAction: "Wait for the page.",
          toolCall: { action: "wait", time: 2 },
          box: null,
          verdict: "harmful",
        }
      : {
          thought: thought("I type the drink's name into the search box."),
          clearAction: "Type the drink's name.",
          toolCall: { action: "type", text: typed },
          box: null,
          verdict: "good",
        };
  return { steps: [tap, second], outcome: who === "bob" && k === 3 ? "failure" : "success" };
}

/** One person's "Start next task" until nothing is left; each copy corrected and submitted through the API. */
async function workThrough(who: "ann" | "bob" | "cat"): Promise<string[]> {
  const done: string[] = [];
  for (;;) {
    const { id } = await ok<{ id: string | null }>(api(who, "POST", "tasks/next"));
    if (id === null) return done;
    const view = await ok<TrajectoryView>(api(who, "GET", "trajectories/[id]", { params: { id } }));
    const k = Number(view.instruction.replace("Find a drink ", ""));
    const mine = answer(who, k);
    for (const [i, s] of view.steps.entries())
      await ok(api(who, "PUT", "steps/[id]/annotation", { params: { id: s.id }, body: { ...mine.steps[i]!, version: s.version } }));
    await ok(
      api(who, "PUT", "trajectories/[id]/annotation", {
        params: { id },
        body: { outcome: mine.outcome, isDiscarded: false, cutAfter: null, version: view.version },
      }),
    );
    await ok(api(who, "POST", "trajectories/[id]/submit", { params: { id } }));
    done.push(`${k}`);
  }
}

const fig = (compared: number, agreed: number, kappa?: number | null): FieldFigure => ({
  compared,
  agreed,
  rate: compared === 0 ? null : agreed / compared,
  // kappa as the hand-computed fraction, to 12 places (the report divides in another order)
  ...(kappa === undefined ? {} : { kappa: kappa === null ? null : (expect.closeTo(kappa, 12) as unknown as number) }),
});

let report: AgreementReport;

beforeAll(async () => {
  ({ db, dir } = await freshStudio());
  await signUp(
    db,
    [
      ["admin", "admin"],
      ["ann", "annotator"],
      ["bob", "annotator"],
      ["cat", "annotator"],
      ["rev", "reviewer"],
    ] as const,
    tokens,
    "overlap",
  );
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (k: number) =>
    JSON.stringify({
      goal: `Find a drink ${k}`,
      app: k < 5 ? "淘宝" : "美团",
      steps: [
        { action_content: { action: "click", coordinate: [400, 1000] }, screenshot: "s.png" },
        { action_content: { action: "type", text: "coffee" }, screenshot: "s.png" },
      ],
    });
  await writeFile(path.join(dir, "d.jsonl"), Array.from({ length: 10 }, (_, k) => line(k)).join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", project: "drinks", db });
});

describe("three people correct the same ten trajectories independently", () => {
  it("an admin overlaps the whole project three ways; an annotator may not", async () => {
    expect((await api("ann", "POST", "overlap", { body: { project: "drinks", copies: 3 } })).status).toBe(403);
    const res = await ok<{ overlapped: { id: string; copies: string[] }[] }>(
      api("admin", "POST", "overlap", { body: { project: "drinks", share: 1, copies: 3 } }),
    );
    expect(res.overlapped).toHaveLength(10);
    expect(res.overlapped.every((o) => o.copies.length === 3)).toBe(true);
    // Asking again changes nothing: overlapped work is no longer untouched.
    const again = await ok<{ overlapped: unknown[] }>(api("admin", "POST", "overlap", { body: { project: "drinks", copies: 2 } }));
    expect(again.overlapped).toEqual([]);
    const refused = await api("admin", "POST", "overlap", { body: { trajectoryIds: [res.overlapped[0]!.id], copies: 2 } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(res.overlapped[0]!.id);
  });

  it("each takes ten copies, one of every trajectory, never two of one; the originals are never taken", async () => {
    // ann works through everything first: after each hand-in the oldest free work is another copy of
    // what she just did, which she must never get; then bob, then cat.
    for (const who of ["ann", "bob", "cat"] as const)
      expect((await workThrough(who)).sort(), who).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(await ok<{ id: string | null }>(api("ann", "POST", "tasks/next"))).toEqual({ id: null });
    const originals = await db.trajectory.findMany({ where: { copyOfId: null } });
    expect(originals.map((t) => [t.status, t.assigneeId, t.overlap])).toEqual(Array.from({ length: 10 }, () => ["new", null, 3]));
    // Each copy is its own annotation: its own step versions and its own audit rows.
    const copy = await db.trajectory.findFirstOrThrow({ where: { copyOfId: originals[0]!.id, assignee: { email: "bob@example.com" } } });
    const audit = await db.auditEvent.findMany({ where: { entityType: "trajectory", entityId: copy.id }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["trajectory.copy", "trajectory.take", "trajectory.submit"]));
    const steps = await db.step.findMany({ where: { trajectoryId: copy.id } });
    expect(steps.every((s) => s.version === 2)).toBe(true);
  });

  it("the review queue offers each original to adjudicate, never a copy on its own; no copy is claimed", async () => {
    const queue = await ok<{ rows: { id: string; adjudicate: number }[] }>(api("rev", "GET", "reviews"));
    const originals = await db.trajectory.findMany({ where: { copyOfId: null }, select: { id: true } });
    expect(queue.rows.map((r) => r.id).sort()).toEqual(originals.map((o) => o.id).sort());
    expect(queue.rows.every((r) => r.adjudicate === 3)).toBe(true);
    expect(await ok<{ id: string | null }>(api("rev", "POST", "reviews/next"))).toEqual({ id: null });
    const copy = await db.trajectory.findFirstOrThrow({ where: { copyOfId: { not: null } } });
    expect(await ok<{ claim: unknown }>(api("rev", "POST", "reviews/[id]/claim", { params: { id: copy.id } }))).toEqual({ claim: null });
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: copy.id } })).reviewLeaseById).toBeNull();
  });

  it("gives the agreement figures of the hand-computed table", async () => {
    expect((await api("ann", "GET", "dashboard/agreement")).status).toBe(403);
    report = await ok<AgreementReport>(api("rev", "GET", "dashboard/agreement", { query: "?project=drinks" }));
    expect(report.trajectories).toBe(10);
    const pair = (a: string, b: string) => report.byPair.find((p) => p.a === `${a}@example.com` && p.b === `${b}@example.com`)!;
    // ann and bob tap 350 px apart, both inside the box they drew: every point agrees.
    expect(Math.hypot(650 - 300, 1050 - 1000)).toBeGreaterThan(report.options.pointTolerancePx * 10);
    expect(pair("ann", "bob")).toEqual({
      a: "ann@example.com",
      b: "bob@example.com",
      trajectories: 10,
      steps: 20,
      fields: {
        actionType: fig(20, 20, 1), // 10 click-click, 10 type-type: p_e = 0.5
        point: fig(10, 10),
        box: fig(10, 10),
        text: fig(10, 10), // "Coffee" and "  coffee " are the same text
        verdict: fig(20, 20, null), // both always "good": kappa undefined
        thought: fig(20, 20),
        outcome: fig(10, 9, 0), // p_o = 0.9 = p_e
        cut: fig(10, 10),
        discard: fig(10, 10),
      },
    });
    // ann and cat: cat's taps on k = 8, 9 are in another box; texts differ on k = 5..8, k = 9 is a wait.
    const annCat = {
      actionType: fig(20, 19, 19 / 21), // p_o = 0.95, p_e = 0.5*0.5 + 0.5*0.45 = 0.475
      point: fig(10, 8),
      box: fig(10, 8),
      text: fig(9, 5),
      verdict: fig(20, 19, 0), // p_o = 0.95 = p_e = 1 * 19/20
      thought: fig(20, 18), // k = 8's tap and k = 9's wait say other things
      outcome: fig(10, 10, null),
      cut: fig(10, 10),
      discard: fig(10, 10),
    };
    expect(pair("ann", "cat").fields).toEqual(annCat);
    expect(pair("bob", "cat").fields).toEqual({ ...annCat, outcome: fig(10, 9, 0) });
    expect(report.overall).toEqual({
      actionType: fig(60, 58, 29 / 31), // p_o = 58/60, p_e = (30*30 + 30*28) / 3600
      point: fig(30, 26),
      box: fig(30, 26),
      text: fig(28, 20),
      verdict: fig(60, 58, 0), // p_o = 58/60 = p_e = 1 * 58/60
      thought: fig(60, 56),
      outcome: fig(30, 28, -1 / 29), // p_o = 28/30, p_e = (29*29 + 1*1) / 900: kappa = -2/58
      cut: fig(30, 30),
      discard: fig(30, 30),
    });
    // Per app: the texts differ only on 美团 (k = 5..9).
    expect(report.byApp.map((a) => [a.app, a.fields.text.compared, a.fields.text.agreed])).toEqual([
      ["淘宝", 15, 15],
      ["美团", 13, 5],
    ]);
    // A step pair counts under both its action types: the two (type, wait) pairs of k = 9.
    expect(report.byActionType.find((t) => t.actionType === "wait")!.fields.actionType).toEqual(fig(2, 0, 0));
    expect(report.byActionType.find((t) => t.actionType === "click")!.fields.point).toEqual(fig(30, 26));
    // Krippendorff's alpha over the three people: 20 step units and 10 trajectory units.
    expect(report.alpha.actionType).toBeCloseTo(1740 / 1858, 12);
    expect(report.alpha.verdict).toBeCloseTo(0, 12);
    expect(report.alpha.outcome).toBeCloseTo(0, 12);
  });

  it("the agreement tables download as CSV with the same numbers", async () => {
    const res = await api("rev", "GET", "dashboard/tables/[table]", { params: { table: "agreement-by-pair" } });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { bom: true }) as string[][];
    expect(rows[0]).toEqual(["person_a", "person_b", "trajectories", "steps", "field", "compared", "agreed", "rate", "kappa"]);
    const annCat = rows.find((r) => r[0] === "ann@example.com" && r[1] === "cat@example.com" && r[4] === "actionType")!;
    expect(annCat.slice(0, 8)).toEqual(["ann@example.com", "cat@example.com", "10", "20", "actionType", "20", "19", "0.95"]);
    expect(Number(annCat[8])).toBeCloseTo(19 / 21, 12);
    expect(rows).toContainEqual(["ann@example.com", "bob@example.com", "10", "20", "point", "10", "10", "1", ""]);
    const alpha = parse(await (await api("rev", "GET", "dashboard/tables/[table]", { params: { table: "agreement-alpha" } })).text(), {
      bom: true,
    }) as string[][];
    expect(Number(alpha.find((r) => r[0] === "actionType")![1])).toBeCloseTo(1740 / 1858, 12);
  });

  it("the export holds each trajectory once, never the people's copies", async () => {
    const out = path.join(dir, "export");
    const summary = await exportDataset({ status: "all", outDir: out, db });
    expect(summary.trajectories).toBe(10);
    const lines = (await readFile(path.join(out, "trajectories.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(10);
  });
});
