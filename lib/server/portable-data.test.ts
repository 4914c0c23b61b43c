// Issue 22, "data that breaks on the way": what the studio accepts must be storable on either database
// and movable between them, and files that look right but are not must be refused at the door with the
// file or field named. Real route handlers with API tokens, real imports, a fresh SQLite studio, and the
// same checks again on a private PostgreSQL server (where a NUL or a 2^32-1 width used to fail).
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { createHash } from "node:crypto";
import { createWriteStream, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as stepRoute } from "@/app/api/steps/[id]/annotation/route";
import { POST as commentRoute } from "@/app/api/comments/route";
import { PATCH as meRoute } from "@/app/api/me/route";
import { POST as tokensRoute } from "@/app/api/tokens/route";
import { GET as trajectoryRoute } from "@/app/api/trajectories/[id]/route";
import { GET as trajectoriesRoute } from "@/app/api/trajectories/route";
import { GET as screenshotRoute } from "@/app/api/screenshots/[sha]/route";
import { CLI_ACTOR } from "./people/audit";
import type { Db } from "./db";
import { importFile, type ImportResult } from "./import";
import { createUser } from "./people";
import { createToken } from "./people/tokens";
import { screenshotFile } from "./object-store/screenshots";
import { extractZip } from "./import/zip";
import { blankPng, freshStudio } from "./testing/fixtures";
import { undecodablePngs } from "./testing/hostile-uploads";
import { hasPostgres, startPostgres, type PostgresServer } from "./testing/postgres";

type Handler = (req: Request, ctx: never) => Promise<Response>;
type Studio = { db: Db; dir: string; token: string; stepId: string; trajectoryId: string };

async function send(handler: Handler, method: string, url: string, token: string, body?: object, params: Record<string, string> = {}) {
  const res = await handler(
    new Request(`http://127.0.0.1:3000${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
    { params: Promise.resolve(params) } as never,
  );
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

/** One UI-S1 line whose first step's thought is `thought`. */
const uiS1Line = (goal: string, screenshot: string, thought = "Open the app.") =>
  JSON.stringify({ goal, steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot, thought }] });

async function importLines(s: Pick<Studio, "db" | "dir">, name: string, text: string | Buffer): Promise<ImportResult> {
  const file = path.join(s.dir, name);
  await writeFile(file, text);
  return importFile({ file, format: "ui-s1", screenshotsDir: s.dir, db: s.db });
}

/** Everything a refused write must leave as it was. */
const snapshot = (db: Db) =>
  Promise.all([
    db.trajectory.count(),
    db.step.findMany({ orderBy: { id: "asc" } }),
    db.comment.count(),
    db.user.findMany({ orderBy: { id: "asc" } }),
    db.apiToken.count(),
    db.auditEvent.count(),
  ]);

/** A studio with one annotator (API token) who holds one imported trajectory. */
async function seed(db: Db, dir: string): Promise<Studio> {
  await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "password-123" }, db);
  const token = (await createToken({ actor: CLI_ACTOR, user: "ann@example.com", name: "t" }, db)).token;
  await writeFile(path.join(dir, "a.png"), await blankPng(1080, 2400));
  const r = await importLines({ db, dir }, "seed.jsonl", `${uiS1Line("Open Gmail", "a.png")}\n`);
  expect(r.ok, JSON.stringify(r)).toBe(true);
  const t = await db.trajectory.findFirstOrThrow();
  const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
  await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: ann.id } });
  const stepId = (await db.step.findFirstOrThrow({ where: { trajectoryId: t.id } })).id;
  return { db, dir, token, stepId, trajectoryId: t.id };
}

/** The checks that must answer the same on SQLite and PostgreSQL. */
function sameOnEveryDatabase(studio: () => Studio) {
  const NUL = "\u0000";
  const annotation = (thought: string) => ({
    thought: { state: "s", nextAction: "n", purpose: "p", text: thought },
    clearAction: "Open Gmail.",
    toolCall: { action: "open", text: "Gmail" },
    box: null,
    verdict: "good",
    version: 1,
  });

  it("refuses an import whose thought holds a NUL, naming the line, step and field; nothing is imported", async () => {
    const s = studio();
    const before = await snapshot(s.db);
    const r = await importLines(s, "nul.jsonl", `${uiS1Line("Fine", "a.png")}\n${uiS1Line("Open Maps", "a.png", `Tap${NUL}here`)}\n`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      {
        file: "nul.jsonl",
        line: 2,
        step: 0,
        field: "thought",
        code: "invalid",
        params: { detail: "must not contain the NUL character (\\u0000)" },
        message: "must not contain the NUL character (\\u0000)",
      },
    ]);
    expect(await snapshot(s.db)).toEqual(before);
  });

  it("refuses a PNG declaring a width of 2^32-1, naming the file; nothing is imported", async () => {
    const s = studio();
    await writeFile(path.join(s.dir, "wide.png"), undecodablePngs()["wide.png"]!);
    const before = await snapshot(s.db);
    const r = await importLines(s, "wide.jsonl", `${uiS1Line("Wide", "wide.png")}\n`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: "wide.jsonl", line: 1, step: 0, field: "screenshot" });
    expect(r.problems[0]!.message).toMatch(/wide\.png declares 4,294,967,295x2,400 pixels; at most 16,383 per side/);
    expect(await snapshot(s.db)).toEqual(before);
  });

  it("answers a NUL in a step save, a comment, a display name and a token name with 422 naming the field, and changes nothing", async () => {
    const s = studio();
    const before = await snapshot(s.db);
    const cases = [
      {
        r: await send(stepRoute, "PUT", `/api/steps/${s.stepId}/annotation`, s.token, annotation(`a${NUL}b`), { id: s.stepId }),
        field: "thought.text",
      },
      {
        r: await send(commentRoute, "POST", "/api/comments", s.token, { trajectoryId: s.trajectoryId, stepId: s.stepId, body: `hi${NUL}` }),
        field: "body",
      },
      { r: await send(meRoute, "PATCH", "/api/me", s.token, { name: `Ann${NUL}` }), field: "name" },
      { r: await send(tokensRoute, "POST", "/api/tokens", s.token, { name: `ci${NUL}` }), field: "name" },
      { r: await send(trajectoriesRoute, "GET", `/api/trajectories?q=a%00b`, s.token), field: "q" },
    ];
    for (const { r, field } of cases) {
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.error?.message).toBe(`${field}: must not contain the NUL character (\\u0000)`);
    }
    expect(await snapshot(s.db)).toEqual(before);
    // The same save without the NUL goes through: the refusal was the character, nothing else.
    const ok = await send(stepRoute, "PUT", `/api/steps/${s.stepId}/annotation`, s.token, annotation("ab"), { id: s.stepId });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("answers a %00 in a path id with 404, not 500", async () => {
    const s = studio();
    for (const id of [NUL, `${s.trajectoryId}${NUL}`]) {
      const r = await send(trajectoryRoute, "GET", `/api/trajectories/${encodeURIComponent(id)}`, s.token, undefined, { id });
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      expect(r.body.error?.message).toBe("Nothing is found at this address: its id must not contain the NUL character (\\u0000).");
    }
    const step = await send(stepRoute, "PUT", `/api/steps/%00/annotation`, s.token, annotation("x"), { id: NUL });
    expect(step.status).toBe(404);
  });
}

describe("on SQLite", () => {
  let s: Studio;
  beforeAll(async () => {
    const { db, dir } = await freshStudio();
    s = await seed(db, dir);
  });
  afterAll(() => s.db.$disconnect());

  sameOnEveryDatabase(() => s);

  it("refuses screenshots that never decode, naming each file, and imports nothing", async () => {
    const pngs = undecodablePngs();
    for (const [name, bytes] of Object.entries(pngs)) await writeFile(path.join(s.dir, name), bytes);
    const before = await snapshot(s.db);
    const names = Object.keys(pngs);
    const r = await importLines(s, "broken.jsonl", `${names.map((n) => uiS1Line(`Broken ${n}`, n)).join("\n")}\n`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(
      r.problems.map((p) => [p.line, p.field, p.message.match(/screenshot \S*?([\w-]+\.png) (declares|does not decode)/)?.slice(1)]),
    ).toEqual([
      [1, "screenshot", ["header-only.png", "declares"]],
      [2, "screenshot", ["garbage-pixels.png", "does not decode"]],
      [3, "screenshot", ["polyglot.png", "does not decode"]],
      [4, "screenshot", ["wide.png", "declares"]],
    ]);
    expect(await snapshot(s.db)).toEqual(before);
    // Nor are their bytes left in the screenshot store.
    const shas = Object.values(pngs).map((b) => createHash("sha256").update(b).digest("hex"));
    const stored = readdirSync(path.join(s.dir, "screenshots"), { recursive: true }).map(String);
    expect(stored.filter((f) => shas.some((sha) => f.includes(sha)))).toEqual([]);
  });

  it("answers the display image of a stored screenshot that does not decode with 422 in words, not a 500", async () => {
    // What an import before decoding checks could leave in the store: the bytes of a garbage PNG under a screenshot's name.
    const shot = await s.db.screenshot.create({
      data: { sha256: "e".repeat(64), width: 1080, height: 2400, bytes: 10, mime: "image/png" },
    });
    await s.db.step.update({ where: { id: s.stepId }, data: { screenshotSha: shot.sha256 } });
    try {
      const file = screenshotFile(shot.sha256, shot.mime);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, undecodablePngs()["garbage-pixels.png"]!);
      const r = await send(screenshotRoute as Handler, "GET", `/api/screenshots/${shot.sha256}`, s.token, undefined, { sha: shot.sha256 });
      expect(r).toEqual({
        status: 422,
        body: {
          error: {
            code: "unprocessable",
            message: "Screenshot eeeeeeeeeeee… does not decode as an image; import it again from a good copy.",
          },
        },
      });
    } finally {
      const first = await s.db.screenshot.findFirstOrThrow({ where: { sha256: { not: shot.sha256 } } });
      await s.db.step.update({ where: { id: s.stepId }, data: { screenshotSha: first.sha256 } });
    }
  });

  it("imports a JSONL that starts with a UTF-8 byte-order mark", async () => {
    const r = await importLines(
      s,
      "bom.jsonl",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${uiS1Line("With a BOM", "a.png")}\r\n`)]),
    );
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, trajectories: 1, steps: 1 });
    expect(await s.db.trajectory.count({ where: { instruction: "With a BOM" } })).toBe(1);
  });

  it("names a line whose JSON nests 20,000 deep, instead of failing the whole import", async () => {
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const line = JSON.stringify({
      goal: "Deep",
      steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "a.png", extra: "X" }],
    }).replace('"X"', deep);
    const before = await snapshot(s.db);
    const r = await importLines(s, "deep.jsonl", `${uiS1Line("Shallow", "a.png")}\n${line}\n`);
    expect(r).toMatchObject({
      ok: false,
      problems: [{ file: "deep.jsonl", line: 2, message: "the JSON nests deeper than 64 levels; a trajectory needs about 10" }],
    });
    expect(await snapshot(s.db)).toEqual(before);
  });
});

describe("a zip holding a file `images` and an entry `images/a.png`", () => {
  async function clashZip(entries: [string, string][]): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "clash-"));
    const zip = new yazl.ZipFile();
    for (const [name, text] of entries) zip.addBuffer(Buffer.from(text), name);
    zip.end();
    const out = path.join(dir, "clash.zip");
    const sink = createWriteStream(out);
    zip.outputStream.pipe(sink);
    await once(sink, "finish");
    return out;
  }

  it.each([
    [
      "the file first",
      [
        ["images", "not a folder"],
        ["images/a.png", "png"],
        ["data.jsonl", "{}"],
      ],
    ],
    [
      "the folder first",
      [
        ["images/a.png", "png"],
        ["images", "not a folder"],
        ["data.jsonl", "{}"],
      ],
    ],
  ] as [string, [string, string][]][])("is a named problem (%s), with nothing extracted", async (_, entries) => {
    const zip = await clashZip(entries);
    const out = path.join(path.dirname(zip), "out");
    const err = await extractZip(zip, out).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "unprocessable",
      message:
        'The zip holds a file "images" and also "images/a.png" inside a folder of that name; rename one of them. Nothing was extracted.',
    });
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });
});

describe.skipIf(!hasPostgres)("on PostgreSQL", () => {
  let server: PostgresServer;
  let s: Studio;
  const saved = { url: process.env.DATABASE_URL, data: process.env.STUDIO_DATA_DIR };
  beforeAll(async () => {
    server = startPostgres();
    const { db, url, dir } = await server.freshDb();
    // The route handlers use the process's database: this one, for this block.
    process.env.DATABASE_URL = url;
    process.env.STUDIO_DATA_DIR = dir;
    s = await seed(db, dir);
  }, 120_000);
  afterAll(async () => {
    await s?.db.$disconnect();
    server?.stop();
    process.env.DATABASE_URL = saved.url;
    process.env.STUDIO_DATA_DIR = saved.data;
  });

  sameOnEveryDatabase(() => s);
});
