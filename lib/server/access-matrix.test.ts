// Every mutating route, called by each role (and by an annotator on someone else's task) with an
// API token: allowed calls succeed, forbidden ones answer 403 and change nothing in the database.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { waitForImportJob } from "./import/jobs";
import type { Db } from "./db";
import { makeCopies } from "./annotate/overlap";
import { settleExportJobs } from "./export/jobs";
import { settleModelJobs } from "./model/jobs";
import { settleEvalRuns } from "./eval";
import { API_DIR, loadRoute, routeFiles, routeUrl } from "./testing/route-calls";
import { seedMatrixStudio, uiS1, WHO, type MatrixStudio as Ctx, type Who } from "./testing/matrix-studio";

type Case = {
  name: string;
  route: string;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  params?: (c: Ctx) => Record<string, string>;
  /** A fresh body per call (some calls consume state, e.g. a version). */
  body: (c: Ctx) => Promise<BodyInit | object> | BodyInit | object;
  allowed: Who[];
  /** What a refused caller gets: 403, or 404 where the record is only visible to its owner. */
  refusedWith?: 403 | 404;
  /** Put the data back as it was before an allowed call, so the next caller sees the same state. */
  reset?: (c: Ctx) => Promise<void>;
};

const CASES: Case[] = [
  {
    name: "assign work",
    route: "assignments",
    method: "POST",
    body: (c) => ({ trajectoryIds: [c.mine], assignee: "annotator@example.com" }),
    allowed: ["admin"],
  },
  {
    name: "import an upload",
    route: "imports",
    method: "POST",
    body: (c) => {
      const form = new FormData();
      form.append("format", "ui-s1");
      form.append("files", new Blob([uiS1(`upload ${Math.random()}`)]), "d.jsonl");
      form.append("files", new Blob([new Uint8Array(c.png)]), "s.png");
      return form;
    },
    allowed: ["admin"],
    // The upload answers 202 and imports in the background: let it end before the next case dumps the database.
    reset: async (c) => {
      for (const j of await c.db.importJob.findMany({ where: { state: "running" } })) await waitForImportJob(j.id);
    },
  },
  {
    name: "decide a review",
    route: "reviews/[id]",
    method: "POST",
    params: (c) => ({ id: c.theirs }),
    body: async (c) => ({ decision: "approve", version: (await c.db.trajectory.findUniqueOrThrow({ where: { id: c.theirs } })).version }),
    allowed: ["admin", "reviewer"],
    reset: async (c) => void (await c.db.trajectory.update({ where: { id: c.theirs }, data: { status: "submitted" } })),
  },
  {
    name: "fix and approve",
    route: "reviews/[id]",
    method: "POST",
    params: (c) => ({ id: c.theirs }),
    body: async (c) => {
      const s = await c.db.step.findFirstOrThrow({ where: { trajectoryId: c.theirs } });
      return {
        decision: "approve",
        version: (await c.db.trajectory.findUniqueOrThrow({ where: { id: c.theirs } })).version,
        fixes: [
          {
            stepId: s.id,
            version: s.version,
            thought: {
              state: "Home screen.",
              nextAction: "Open Gmail.",
              purpose: "To read mail.",
              text: "Home screen. Open Gmail. To read mail.",
            },
            clearAction: "Open Gmail.",
            toolCall: { action: "open", text: "Gmail" },
            box: null,
            verdict: "good",
          },
        ],
      };
    },
    allowed: ["admin", "reviewer"],
    reset: async (c) => void (await c.db.trajectory.update({ where: { id: c.theirs }, data: { status: "submitted" } })),
  },
  {
    name: "start the next review",
    route: "reviews/next",
    method: "POST",
    body: () => ({}),
    allowed: ["admin", "reviewer"],
    reset: async (c) => void (await c.db.trajectory.updateMany({ data: { reviewLeaseById: null, reviewLeaseUntil: null } })),
  },
  {
    name: "claim a review",
    route: "reviews/[id]/claim",
    method: "POST",
    params: (c) => ({ id: c.theirs }),
    body: () => ({}),
    allowed: ["admin", "reviewer"],
    reset: async (c) => void (await c.db.trajectory.updateMany({ data: { reviewLeaseById: null, reviewLeaseUntil: null } })),
  },
  {
    name: "leave a review",
    route: "reviews/[id]/claim",
    method: "DELETE",
    params: (c) => ({ id: c.theirs }),
    body: () => ({}),
    allowed: ["admin", "reviewer"],
  },
  {
    name: "comment on a trajectory",
    route: "comments",
    method: "POST",
    body: (c) => ({ trajectoryId: c.mine, body: "looks right" }),
    allowed: ["admin", "reviewer", "annotator"],
  },
  {
    name: "reply to a comment",
    route: "comments/[id]/replies",
    method: "POST",
    params: (c) => ({ id: c.commentOnMine }),
    body: () => ({ body: "done" }),
    allowed: ["admin", "reviewer", "annotator"],
  },
  {
    name: "resolve a comment",
    route: "comments/[id]",
    method: "PATCH",
    params: (c) => ({ id: c.commentOnMine }),
    body: () => ({ isResolved: true }),
    allowed: ["admin", "reviewer", "annotator"],
    reset: async (c) => void (await c.db.comment.update({ where: { id: c.commentOnMine }, data: { isResolved: false } })),
  },
  {
    name: "add a person",
    route: "users",
    method: "POST",
    body: () => ({ email: `new-${Math.random().toString(36).slice(2)}@example.com`, role: "annotator" }),
    allowed: ["admin"],
  },
  {
    name: "change a person",
    route: "users/[id]",
    method: "PATCH",
    params: (c) => ({ id: c.users["other-annotator"] }),
    body: () => ({ name: "Renamed" }),
    allowed: ["admin"],
  },
  {
    name: "reset a person's password",
    route: "users/[id]/password",
    method: "POST",
    params: (c) => ({ id: c.users["other-annotator"] }),
    body: () => ({}),
    allowed: ["admin"],
    // A reset revokes the person's API tokens; give the matrix its token back for the next cases.
    reset: async (c) => void (await c.db.apiToken.updateMany({ where: { userId: c.users["other-annotator"] }, data: { revokedAt: null } })),
  },
  {
    name: "overlap a share of a project (issue 26; a share of 0 picks nothing)",
    route: "overlap",
    method: "POST",
    body: async (c) => ({ project: (await c.db.project.findUniqueOrThrow({ where: { id: c.project } })).name, share: 0, copies: 2 }),
    allowed: ["admin"],
  },
  {
    name: "mark approved work gold (issue 26; an empty change: the trajectory is not gold and stays so)",
    route: "gold",
    method: "POST",
    body: (c) => ({ trajectoryIds: [c.theirs], isGold: false }),
    allowed: ["admin"],
  },
  {
    name: "set a project's gold rate",
    route: "gold/rate",
    method: "PUT",
    body: async (c) => ({ project: (await c.db.project.findUniqueOrThrow({ where: { id: c.project } })).name, rate: 0.2 }),
    allowed: ["admin"],
    reset: async (c) => void (await c.db.project.update({ where: { id: c.project }, data: { goldRate: null } })),
  },
  {
    name: "adjudicate an overlapped trajectory (issue 26)",
    route: "trajectories/[id]/adjudication",
    method: "POST",
    params: (c) => ({ id: c.theirs }),
    body: async (c) => {
      // Made on the first (admin's) call: two handed-in copies of "theirs"; later calls find them.
      if ((await c.db.trajectory.count({ where: { copyOfId: c.theirs } })) === 0) {
        const ids = await c.db.$transaction((tx) =>
          makeCopies(tx, { id: c.users.admin, email: "admin@example.com", name: "admin", role: "admin" }, c.theirs, 2),
        );
        await c.db.trajectory.updateMany({ where: { id: { in: ids } }, data: { status: "submitted" } });
      }
      const t = await c.db.trajectory.findUniqueOrThrow({ where: { id: c.theirs } });
      const parts = { state: "Home screen.", nextAction: "Open Gmail.", purpose: "To read mail.", text: "Home screen. Open Gmail." };
      return {
        version: t.version,
        trajectory: { outcome: "success", isDiscarded: false, cutAfter: null },
        steps: [{ thought: parts, clearAction: "Open Gmail.", toolCall: { action: "open", text: "Gmail" }, box: null, verdict: "good" }],
      };
    },
    allowed: ["admin", "reviewer"],
  },
  { name: "change your own language", route: "me", method: "PATCH", body: () => ({ locale: "zh" }), allowed: WHO },
  {
    name: "change your own studio settings",
    route: "me/settings",
    method: "PUT",
    body: () => ({ isLegendCollapsed: true }),
    allowed: WHO,
  },
  { name: "create your own API token", route: "tokens", method: "POST", body: () => ({ name: "mine" }), allowed: WHO },
  {
    name: "report active time on a step (issue 26: whoever may read the trajectory)",
    route: "effort",
    method: "POST",
    body: (c) => ({ trajectoryId: c.mine, steps: [{ stepId: c.stepOfMine, activeMs: 1_000 }] }),
    allowed: ["admin", "reviewer", "annotator"],
  },
  {
    name: "revoke the annotator's API token",
    route: "tokens/[id]",
    method: "DELETE",
    params: (c) => ({ id: c.annotatorsToken }),
    body: () => ({}),
    allowed: ["admin", "annotator"],
    refusedWith: 404,
    reset: async (c) => void (await c.db.apiToken.update({ where: { id: c.annotatorsToken }, data: { revokedAt: null } })),
  },
  {
    name: "save a step's annotation",
    route: "steps/[id]/annotation",
    method: "PUT",
    params: (c) => ({ id: c.stepOfMine }),
    body: async (c) => ({
      thought: {
        state: "Home screen.",
        nextAction: "Open Gmail.",
        purpose: "To read mail.",
        text: "Home screen. Open Gmail. To read mail.",
      },
      clearAction: "Open Gmail.",
      toolCall: { action: "open", text: "Gmail" },
      box: null,
      verdict: "good",
      version: (await c.db.step.findUniqueOrThrow({ where: { id: c.stepOfMine } })).version,
    }),
    allowed: ["admin", "annotator"],
  },
  {
    name: "save the task outcome and cut",
    route: "trajectories/[id]/annotation",
    method: "PUT",
    params: (c) => ({ id: c.mine }),
    body: async (c) => ({
      outcome: "success",
      isDiscarded: false,
      cutAfter: null,
      version: (await c.db.trajectory.findUniqueOrThrow({ where: { id: c.mine } })).version,
    }),
    allowed: ["admin", "annotator"],
  },
  {
    name: "renew the editing lease",
    route: "trajectories/[id]/lease",
    method: "POST",
    params: (c) => ({ id: c.mine }),
    body: () => ({}),
    allowed: ["admin", "annotator"],
  },
  {
    name: "submit for review",
    route: "trajectories/[id]/submit",
    method: "POST",
    params: (c) => ({ id: c.mine }),
    body: () => ({}),
    allowed: ["admin", "annotator"],
    reset: async (c) => void (await c.db.trajectory.update({ where: { id: c.mine }, data: { status: "in_progress" } })),
  },
  {
    name: "hand in through the fast lane",
    route: "trajectories/[id]/fast-lane",
    method: "POST",
    params: (c) => ({ id: c.mine }),
    body: async (c) => ({
      outcome: "success",
      firstError: null,
      version: (await c.db.trajectory.findUniqueOrThrow({ where: { id: c.mine } })).version,
    }),
    allowed: ["admin", "annotator"],
    reset: async (c) => void (await c.db.trajectory.update({ where: { id: c.mine }, data: { status: "in_progress", lane: null } })),
  },
  {
    name: "set what the fast lane does after the first error",
    route: "projects/[id]/lane",
    method: "PUT",
    params: (c) => ({ id: c.project }),
    body: () => ({ fastLaneAfter: "queue" }),
    allowed: ["admin"],
  },
  {
    name: "start the next task",
    route: "tasks/next",
    method: "POST",
    body: () => ({}),
    allowed: ["admin", "annotator", "other-annotator"],
  },
  {
    name: "start an export",
    route: "exports",
    method: "POST",
    body: () => ({ status: "all" }),
    allowed: ["admin"],
    // The export runs in the background and records its audit row when done: let it finish first.
    reset: () => settleExportJobs(),
  },
  {
    name: "freeze an evaluation set",
    route: "eval-sets",
    method: "POST",
    body: () => ({ name: "matrix", status: "all" }),
    allowed: ["admin"],
  },
  {
    name: "mark an evaluation set held out",
    route: "eval-sets/[id]",
    method: "PATCH",
    params: (c) => ({ id: c.evalSet }),
    body: () => ({ heldOut: true }),
    allowed: ["admin"],
    reset: async (c) => void (await c.db.snapshot.update({ where: { id: c.evalSet }, data: { heldOut: false } })),
  },
  {
    name: "save an evaluation endpoint",
    route: "eval/endpoints",
    method: "POST",
    body: (c) => ({ name: "matrix-endpoint", baseUrl: c.modelUrl, model: "fake-vl" }),
    allowed: ["admin"],
  },
  {
    name: "test an evaluation endpoint",
    route: "eval/endpoints/test",
    method: "POST",
    body: (c) => ({ baseUrl: c.modelUrl, model: "fake-vl" }),
    allowed: ["admin"],
  },
  {
    name: "start an evaluation run",
    route: "eval/runs",
    method: "POST",
    body: () => ({ set: "matrix-held", endpoint: "matrix-endpoint" }),
    allowed: ["admin"],
    reset: () => settleEvalRuns(),
  },
  {
    name: "cancel an evaluation run",
    route: "eval/runs/[id]",
    method: "PATCH",
    params: (c) => ({ id: c.pausedRun }),
    body: () => ({ command: "cancel" }),
    allowed: ["admin"],
    reset: async (c) => void (await c.db.evalRun.update({ where: { id: c.pausedRun }, data: { state: "paused", finishedAt: null } })),
  },
  {
    name: "send an evaluation run's failures to annotation",
    route: "eval/runs/[id]/send",
    method: "POST",
    params: (c) => ({ id: c.finishedRun }),
    // "theirs" is under review, so the send is answered and leaves it alone.
    body: () => ({ assignee: "annotator@example.com" }),
    allowed: ["admin"],
  },
  {
    name: "cut a release",
    route: "releases",
    method: "POST",
    body: () => ({ name: "matrix", status: "all" }),
    allowed: ["admin"],
  },
  {
    name: "save the model endpoint",
    route: "model/settings",
    method: "PUT",
    body: (c) => ({ baseUrl: c.modelUrl, model: "fake-vl", apiKey: "sk-matrix", concurrency: 2, timeoutMs: 5_000 }),
    allowed: ["admin"],
  },
  { name: "test the model connection", route: "model/test", method: "POST", body: () => ({}), allowed: ["admin"] },
  {
    name: "start a pre-annotation job",
    route: "model/jobs",
    method: "POST",
    body: (c) => ({ kind: "prefill", trajectoryIds: [c.theirs] }),
    allowed: ["admin"],
    reset: () => settleModelJobs(),
  },
  {
    name: "cancel a model job",
    route: "model/jobs/[id]",
    method: "POST",
    params: (c) => ({ id: c.pausedJob }),
    body: () => ({ command: "cancel" }),
    allowed: ["admin"],
    reset: async (c) => void (await c.db.modelJob.update({ where: { id: c.pausedJob }, data: { state: "paused", finishedAt: null } })),
  },
  {
    name: "ask the model for a suggestion",
    route: "steps/[id]/suggestions",
    method: "POST",
    params: (c) => ({ id: c.stepOfMine }),
    body: () => ({ kind: "thought" }),
    allowed: ["admin", "annotator"],
  },
  {
    name: "accept a suggestion",
    route: "suggestions/[id]/accept",
    method: "POST",
    params: (c) => ({ id: c.suggestionOnMine }),
    body: () => ({}),
    allowed: ["admin", "annotator"],
  },
];

/** Every row of every table a mutation could touch (a token's last-used time is bookkeeping, not data). */
async function dump(db: Db) {
  return Promise.all([
    db.trajectory.findMany({ orderBy: { id: "asc" } }),
    db.step.findMany({ orderBy: { id: "asc" } }),
    db.comment.findMany({ orderBy: { id: "asc" } }),
    db.commentReply.findMany({ orderBy: { id: "asc" } }),
    db.reviewDecision.findMany({ orderBy: { id: "asc" } }),
    db.auditEvent.findMany({ orderBy: { id: "asc" } }),
    db.user.findMany({ orderBy: { id: "asc" } }),
    db.apiToken.findMany({ orderBy: { id: "asc" }, omit: { lastUsedAt: true } }),
    db.importBatch.findMany({ orderBy: { id: "asc" } }),
    db.screenshot.findMany({ orderBy: { sha256: "asc" } }),
    db.project.findMany({ orderBy: { id: "asc" } }),
    db.modelSetting.findMany({ orderBy: { id: "asc" } }),
    db.stepSuggestion.findMany({ orderBy: { id: "asc" } }),
    db.modelJob.findMany({ orderBy: { id: "asc" } }),
    db.modelJobItem.findMany({ orderBy: [{ jobId: "asc" }, { itemId: "asc" }] }),
    db.judgeVerdict.findMany({ orderBy: { id: "asc" } }),
    db.evalEndpoint.findMany({ orderBy: { id: "asc" } }),
    db.evalRun.findMany({ orderBy: { id: "asc" } }),
    db.evalStep.findMany({ orderBy: [{ runId: "asc" }, { trajectoryId: "asc" }, { stepIndex: "asc" }] }),
  ]);
}

let ctx: Ctx;
let tokens: Record<Who, string>;

beforeAll(async () => {
  ({ ctx, tokens } = await seedMatrixStudio());
});

async function call(c: Case, who: Who): Promise<Response> {
  const handler = (await loadRoute(c.route))[c.method];
  if (!handler) throw new Error(`${c.route} has no ${c.method}`);
  const body = await c.body(ctx);
  const isJson = !(body instanceof FormData) && typeof body === "object";
  const params = c.params?.(ctx) ?? {};
  const req = new Request(routeUrl(c.route, params), {
    method: c.method,
    headers: { authorization: `Bearer ${tokens[who]}`, ...(isJson ? { "content-type": "application/json" } : {}) },
    body: isJson ? JSON.stringify(body) : (body as BodyInit),
  });
  return handler(req, { params: Promise.resolve(params) });
}

describe("who may change what", () => {
  it("covers every mutating route on disk (a new route must join the matrix)", () => {
    const onDisk = routeFiles()
      .filter((r) => !r.startsWith("auth/"))
      .flatMap((r) => {
        const text = readFileSync(path.join(API_DIR, r, "route.ts"), "utf8");
        return (["POST", "PUT", "PATCH", "DELETE"] as const)
          .filter((m) => new RegExp(`export const ${m}\\b`).test(text))
          .map((m) => `${m} ${r}`);
      });
    expect(onDisk.filter((x) => !CASES.some((c) => `${c.method} ${c.route}` === x))).toEqual([]);
  });

  for (const c of CASES) {
    for (const who of WHO) {
      const isAllowed = c.allowed.includes(who);
      it(`${c.name}: ${who} is ${isAllowed ? "allowed" : `refused with ${c.refusedWith ?? 403}, nothing changed`}`, async () => {
        const before = isAllowed ? undefined : await dump(ctx.db);
        const res = await call(c, who);
        if (isAllowed) {
          expect(res.status, await res.clone().text()).toBeLessThan(300);
          await c.reset?.(ctx);
        } else {
          expect(res.status, await res.clone().text()).toBe(c.refusedWith ?? 403);
          expect(await dump(ctx.db)).toEqual(before);
        }
      });
    }
  }
});
