// Issue 11, finding 6 (the part about fields): a 60 MB thought saved with 200 and the step's history
// grew to 102 MB. Every write path is called here through its real route, with API tokens, on a real
// database: oversize bodies answer 413 before parsing, oversize fields 422 naming the field and the
// limit from lib/domain/limits.ts, and nothing changes.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as stepRoute } from "@/app/api/steps/[id]/annotation/route";
import { POST as commentRoute } from "@/app/api/comments/route";
import { PATCH as meRoute } from "@/app/api/me/route";
import { POST as usersRoute } from "@/app/api/users/route";
import { POST as tokensRoute } from "@/app/api/tokens/route";
import { POST as exportsRoute } from "@/app/api/exports/route";
import { POST as reviewRoute } from "@/app/api/reviews/[id]/route";
import { LIMITS } from "@/lib/domain/limits";
import { CLI_ACTOR } from "./people/audit";
import type { Db } from "./db";
import { importFile } from "./import";
import { createUser } from "./people";
import { createToken } from "./people/tokens";
import { blankPng, freshStudio } from "./testing/fixtures";

let db: Db;
let annToken: string;
let bossToken: string;
let stepId: string;
let trajectoryId: string;

type Handler = (req: Request, ctx: never) => Promise<Response>;
async function send(
  handler: Handler,
  method: string,
  url: string,
  token: string,
  body: BodyInit | object,
  params: Record<string, string> = {},
) {
  const isRaw = typeof body === "string" || body instanceof ReadableStream;
  const res = await handler(
    new Request(`http://127.0.0.1:3000${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: isRaw ? (body as BodyInit) : JSON.stringify(body),
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit),
    { params: Promise.resolve(params) } as never,
  );
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

const annotation = (patch: Record<string, unknown> = {}, version = 1) => ({
  thought: { state: "s", nextAction: "n", purpose: "p", text: "t" },
  clearAction: "Open Gmail.",
  toolCall: { action: "open", text: "Gmail" },
  box: null,
  verdict: "good",
  version,
  ...patch,
});

beforeAll(async () => {
  ({ db } = await freshStudio());
  await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "password-123" }, db);
  await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "password-123" }, db);
  annToken = (await createToken({ actor: CLI_ACTOR, user: "ann@example.com", name: "t" }, db)).token;
  bossToken = (await createToken({ actor: CLI_ACTOR, user: "boss@example.com", name: "t" }, db)).token;
  const dir = await mkdtemp(path.join(os.tmpdir(), "limits-"));
  await writeFile(path.join(dir, "a.png"), await blankPng(1080, 2400));
  await writeFile(
    path.join(dir, "d.jsonl"),
    `${JSON.stringify({ goal: "Open Gmail", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "a.png" }] })}\n`,
  );
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  const t = await db.trajectory.findFirstOrThrow();
  trajectoryId = t.id;
  const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
  await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: ann.id } });
  stepId = (await db.step.findFirstOrThrow({ where: { trajectoryId: t.id } })).id;
});

async function unchanged<T>(fn: () => Promise<T>) {
  const before = await Promise.all([
    db.step.findMany(),
    db.auditEvent.count(),
    db.comment.count(),
    db.user.findMany(),
    db.apiToken.count(),
  ]);
  const r = await fn();
  expect(
    await Promise.all([db.step.findMany(), db.auditEvent.count(), db.comment.count(), db.user.findMany(), db.apiToken.count()]),
  ).toEqual(before);
  return r;
}

describe("bounded bodies", () => {
  it("refuses a 60 MB thought with 413 before parsing it, and saves nothing", async () => {
    const huge = JSON.stringify(annotation({ thought: { state: "s", nextAction: "n", purpose: "p", text: "x".repeat(60 * 1024 * 1024) } }));
    const r = await unchanged(() => send(stepRoute, "PUT", `/api/steps/${stepId}/annotation`, annToken, huge, { id: stepId }));
    expect(r.status).toBe(413);
    expect(r.body.error?.message).toMatch(/over the limit of 1,000,000 bytes.*thought 10,000/);
  });

  it("stops reading a body without a length once it passes the limit", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 50 * LIMITS.drainBodyBytes) return controller.close(); // never reached: reading stops first
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const r = await unchanged(() => send(stepRoute, "PUT", `/api/steps/${stepId}/annotation`, annToken, stream, { id: stepId }));
    expect(r.status).toBe(413);
    // Kept up to the limit; past it read and dropped (so the 413 reaches a client still sending) up to the drain bound, then no more.
    expect(sent).toBeLessThan(LIMITS.drainBodyBytes + 10 * 64 * 1024);
  });
});

describe("field limits, named in the answer", () => {
  const over = (name: keyof typeof LIMITS) => "y".repeat(LIMITS[name] + 1);
  const cases: [string, () => Promise<{ status: number; body: { error?: { message: string } } }>, RegExp][] = [
    [
      "thought text",
      () =>
        send(
          stepRoute,
          "PUT",
          `/api/steps/${stepId}/annotation`,
          annToken,
          annotation({ thought: { state: "s", nextAction: "n", purpose: "p", text: over("thought") } }),
          { id: stepId },
        ),
      /^thought\.text: must be at most 10,000 characters/,
    ],
    [
      "thought part",
      () =>
        send(
          stepRoute,
          "PUT",
          `/api/steps/${stepId}/annotation`,
          annToken,
          annotation({ thought: { state: over("thoughtPart"), nextAction: "n", purpose: "p", text: "t" } }),
          { id: stepId },
        ),
      /^thought\.state: must be at most 10,000 characters/,
    ],
    [
      "clear action",
      () =>
        send(stepRoute, "PUT", `/api/steps/${stepId}/annotation`, annToken, annotation({ clearAction: over("clearAction") }), {
          id: stepId,
        }),
      /^clearAction: must be at most 1,000 characters/,
    ],
    [
      "typed text",
      () =>
        send(
          stepRoute,
          "PUT",
          `/api/steps/${stepId}/annotation`,
          annToken,
          annotation({ toolCall: { action: "type", text: over("toolCallText") } }),
          { id: stepId },
        ),
      /^toolCall\.text: must be at most 4,000 characters/,
    ],
    [
      "comment",
      () => send(commentRoute, "POST", "/api/comments", annToken, { trajectoryId, body: over("comment") }),
      /^body: must be at most 4,000 characters/,
    ],
    [
      "review comment",
      () =>
        send(
          reviewRoute,
          "POST",
          `/api/reviews/${trajectoryId}`,
          bossToken,
          { decision: "reject", version: 1, comment: over("comment") },
          { id: trajectoryId },
        ),
      /^comment: must be at most 4,000 characters/,
    ],
    ["own name", () => send(meRoute, "PATCH", "/api/me", annToken, { name: "n".repeat(200_000) }), /^name: must be at most 100 characters/],
    [
      "new person's email",
      () => send(usersRoute, "POST", "/api/users", bossToken, { email: `${"e".repeat(260)}@example.com`, role: "annotator" }),
      /^email: must be at most 254 characters/,
    ],
    [
      "new person's name",
      () => send(usersRoute, "POST", "/api/users", bossToken, { email: "new@example.com", name: over("personName"), role: "annotator" }),
      /^name: must be at most 100 characters/,
    ],
    [
      "token name",
      () => send(tokensRoute, "POST", "/api/tokens", annToken, { name: over("tokenName") }),
      /^name: must be at most 60 characters/,
    ],
    [
      "export project",
      () => send(exportsRoute, "POST", "/api/exports", bossToken, { project: over("projectName") }),
      /^project: must be at most 100 characters/,
    ],
  ];
  for (const [name, call, message] of cases) {
    it(`refuses an oversize ${name} with 422 and changes nothing`, async () => {
      const r = await unchanged(call);
      expect(r.status).toBe(422);
      expect(r.body.error?.message).toMatch(message);
    });
  }

  it("accepts a thought exactly at the limit", async () => {
    const r = await send(
      stepRoute,
      "PUT",
      `/api/steps/${stepId}/annotation`,
      annToken,
      annotation({ thought: { state: "s", nextAction: "n", purpose: "p", text: "z".repeat(LIMITS.thought) } }),
      { id: stepId },
    );
    expect(r.status).toBe(200);
  });
});
