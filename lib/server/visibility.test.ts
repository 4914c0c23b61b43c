// Issue 11, finding 4: GET /api/trajectories?assignee=none as an annotator listed the whole pool (the
// filter overwrote the visibility rule). Every read route is called here with real API tokens
// against a real database: an annotator sees their own work and nothing of the pool or of others'.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/trajectories/route";
import { GET as oneRoute } from "@/app/api/trajectories/[id]/route";
import { GET as statsRoute } from "@/app/api/stats/route";
import { GET as commentsRoute } from "@/app/api/comments/route";
import { GET as screenshotRoute } from "@/app/api/screenshots/[sha]/route";
import { CLI_ACTOR } from "./people/audit";
import type { Db } from "./db";
import { importFile } from "./import";
import { createUser } from "./people";
import { createToken } from "./people/tokens";
import { blankPng, freshStudio, withTextChunk } from "./testing/fixtures";

const BASE = "http://127.0.0.1:3000";
let db: Db;
const token: Record<"annotator" | "other" | "reviewer", string> = { annotator: "", other: "", reviewer: "" };
let mine: string, theirs: string;
const pool: string[] = [];

const uiS1 = (goal: string, app: string, shot: string) =>
  `${JSON.stringify({ goal, app, steps: [{ action_content: { action: "open", text: app }, screenshot: shot }] })}\n`;

async function get(
  handler: (req: Request, ctx: never) => Promise<Response>,
  url: string,
  who: keyof typeof token,
  params: Record<string, string> = {},
) {
  const res = await handler(new Request(`${BASE}${url}`, { headers: { authorization: `Bearer ${token[who]}` } }), {
    params: Promise.resolve(params),
  } as never);
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  for (const [who, email, role] of [
    ["annotator", "ann@example.com", "annotator"],
    ["other", "other@example.com", "annotator"],
    ["reviewer", "rev@example.com", "reviewer"],
  ] as const) {
    await createUser({ actor: CLI_ACTOR, email, role, password: "password-123" }, db);
    token[who] = (await createToken({ actor: CLI_ACTOR, user: email, name: "t" }, db)).token;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "visibility-"));
  const png = await blankPng(1080, 2400);
  let lines = "";
  for (let i = 0; i < 6; i++) {
    await writeFile(path.join(dir, `s${i}.png`), withTextChunk(png, "n", String(i)));
    lines += uiS1(
      i === 0 ? "mine: open mail" : i === 1 ? "theirs: open mail" : `pool task ${i}: open mail`,
      i % 2 ? "Gmail" : "Maps",
      `s${i}.png`,
    );
  }
  await writeFile(path.join(dir, "d.jsonl"), lines);
  expect(await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db })).toMatchObject({ ok: true, trajectories: 6 });
  const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
  const other = await db.user.findUniqueOrThrow({ where: { email: "other@example.com" } });
  mine = (await db.trajectory.findFirstOrThrow({ where: { instruction: { startsWith: "mine" } } })).id;
  theirs = (await db.trajectory.findFirstOrThrow({ where: { instruction: { startsWith: "theirs" } } })).id;
  await db.trajectory.update({ where: { id: mine }, data: { assigneeId: ann.id, status: "in_progress" } });
  await db.trajectory.update({ where: { id: theirs }, data: { assigneeId: other.id, status: "in_progress" } });
  pool.push(...(await db.trajectory.findMany({ where: { assigneeId: null } })).map((t) => t.id));
  expect(pool).toHaveLength(4);
});

describe("an annotator never sees the pool or others' work", () => {
  it("refuses the assignee filter for the pool or for someone else (403), and lists nothing of theirs", async () => {
    for (const q of [
      "assignee=none",
      "assignee=NONE",
      "assignee=%20none",
      "assignee=other@example.com",
      "assignee=rev@example.com",
      "assignee=none&status=new",
    ]) {
      const r = await get(listRoute, `/api/trajectories?${q}`, "annotator");
      expect(r.status, q).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain("pool task");
    }
  });

  it("keeps every other filter inside their own work", async () => {
    for (const q of [
      "",
      "status=new",
      "status=in_progress",
      "app=Maps",
      "app=Gmail",
      "q=pool",
      "q=open",
      "assignee=ann@example.com",
      "pageSize=200",
      "page=2",
    ]) {
      const r = await get(listRoute, `/api/trajectories?${q}`, "annotator");
      expect(r.status, q).toBe(200);
      const rows = (r.body as { rows: { id: string }[]; total: number }).rows;
      expect(
        rows.every((row) => row.id === mine),
        q,
      ).toBe(true);
      expect((r.body as { total: number }).total, q).toBeLessThanOrEqual(1);
    }
  });

  it("shows them no pool trajectory, screenshot, comment list or count", async () => {
    for (const id of [...pool, theirs]) {
      expect((await get(oneRoute, `/api/trajectories/${id}`, "annotator", { id })).status).toBe(403);
      expect((await get(commentsRoute, `/api/comments?trajectoryId=${id}`, "annotator")).status).toBe(403);
    }
    const poolShot = await db.step.findFirstOrThrow({ where: { trajectoryId: pool[0] } });
    expect(
      (await get(screenshotRoute, `/api/screenshots/${poolShot.screenshotSha}`, "annotator", { sha: poolShot.screenshotSha })).status,
    ).toBe(404);
    const stats = await get(statsRoute, "/api/stats", "annotator");
    expect(stats.body).toMatchObject({ trajectories: 1 });
  });

  it("still lets a reviewer list the pool with the same filter", async () => {
    const r = await get(listRoute, "/api/trajectories?assignee=none", "reviewer");
    expect(r.status).toBe(200);
    expect((r.body as { rows: { id: string }[] }).rows.map((x) => x.id).sort()).toEqual([...pool].sort());
  });
});
