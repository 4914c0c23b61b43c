// The bulk writers write exactly the rows the Prisma client wrote before them (createMany on the
// staged tables): the same values, read back through Prisma and as raw SQL values, on both dialects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { freshStudio } from "../../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../../testing/postgres";
import { openBulkWriter, type StagedChunk } from ".";

/** Rows with every kind of value a column can hold: nulls, both booleans, long and non-ASCII text, zero. */
function chunk(prefix: string, batchId: string): StagedChunk {
  const sha = (n: number) => n.toString(16).padStart(64, "0");
  return {
    screenshots: [
      { batchId, sha256: sha(1), width: 1080, height: 2400, bytes: 123_456, mime: "image/png", dhash: "f0e1d2c3b4a59687" },
      { batchId, sha256: sha(2), width: 720, height: 1280, bytes: 0, mime: "image/jpeg", dhash: null },
    ],
    trajectories: [
      {
        id: `${prefix}t1`,
        batchId,
        fingerprint: "f".repeat(64),
        source: "mobile-r1",
        sourceRef: "data.jsonl:1",
        app: "设置 Settings",
        instruction: 'Turn on "Wi-Fi"\nthen go back — ✓',
        systemPrompt: null,
        status: "new",
        outcome: null,
        originalOutcome: "success",
        isDiscarded: false,
        cutAfter: null,
        stepCount: 2,
        metaJson: "{}",
      },
      {
        id: `${prefix}t2`,
        batchId,
        fingerprint: "e".repeat(64),
        source: "studio",
        sourceRef: null,
        app: "Gmail",
        instruction: "x".repeat(20_000),
        systemPrompt: "You are a phone agent.",
        status: "approved",
        outcome: "failure",
        originalOutcome: null,
        isDiscarded: true,
        cutAfter: 0,
        stepCount: 1,
        metaJson: JSON.stringify({ episode: 7, tags: ["a", "b"] }),
      },
    ],
    steps: [0, 1, 2].map((i) => ({
      id: `${prefix}s${i}`,
      batchId,
      trajectoryId: `${prefix}t${i < 2 ? 1 : 2}`,
      index: i < 2 ? i : 0,
      screenshotSha: sha(i < 2 ? 1 : 2),
      originalJson: JSON.stringify({ raw: `step ${i}`, toolCall: { action: "click", coordinate: [1, 2] } }),
      thoughtState: i === 0 ? "" : "on the home screen",
      thoughtNext: "tap Wi-Fi",
      thoughtPurpose: "",
      thought: `思考 ${i}`,
      clearAction: "Tap Wi-Fi",
      toolCallJson: JSON.stringify({ action: "click", coordinate: [540, 1200] }),
      boxJson: i === 1 ? null : "[1,2,3,4]",
      candidateBoxJson: "[]",
      verdict: i === 2 ? "harmful" : "unreviewed",
      provenanceJson:
        i === 1 ? JSON.stringify({ "thought.text": { source: "typed", by: "ann@example.com", at: "2026-01-02T03:04:05.000Z" } }) : null,
      version: i === 1 ? 7 : 1,
    })),
  };
}

/** Every staged row of a batch, ids without their prefix and without the batch id, as Prisma reads them. */
async function viaPrisma(db: Db, batchId: string, prefix: string) {
  const strip = <T extends { batchId: string }>(rows: T[]) =>
    rows.map(({ batchId: _b, ...r }) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === "string" && v.startsWith(prefix) ? v.slice(prefix.length) : v]),
      ),
    );
  return {
    screenshots: strip(await db.importStagedScreenshot.findMany({ where: { batchId }, orderBy: { sha256: "asc" } })),
    trajectories: strip(await db.importStagedTrajectory.findMany({ where: { batchId }, orderBy: { id: "asc" } })),
    steps: strip(await db.importStagedStep.findMany({ where: { batchId }, orderBy: { id: "asc" } })),
  };
}

/** The same rows as the database holds them (raw SQL: booleans as 0/1 or true/false, ints as ints). */
async function viaSql(db: Db, batchId: string, prefix: string) {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of [
    ["ImportStagedScreenshot", "sha256"],
    ["ImportStagedTrajectory", "id"],
    ["ImportStagedStep", "id"],
  ] as const) {
    const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM "${table}" WHERE "batchId" = '${batchId}' ORDER BY "${key}"`,
    );
    out[table] = rows.map(({ batchId: _b, ...r }) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === "string" && v.startsWith(prefix) ? v.slice(prefix.length) : v]),
      ),
    );
  }
  return out;
}

function suite(name: string, studio: () => Promise<{ db: Db }>) {
  it(`${name}: the bulk writer's rows equal Prisma createMany's`, async () => {
    const { db } = await studio();
    const viaClient = chunk("p-", "batch-prisma");
    await db.importStagedScreenshot.createMany({ data: viaClient.screenshots });
    await db.importStagedTrajectory.createMany({ data: viaClient.trajectories });
    await db.importStagedStep.createMany({ data: viaClient.steps });
    const writer = await openBulkWriter(db);
    try {
      const bulk = chunk("b-", "batch-bulk");
      // In two chunks, the second repeating a screenshot (staged once per batch, as the import does).
      await writer.write({
        screenshots: bulk.screenshots.slice(0, 1),
        trajectories: bulk.trajectories.slice(0, 1),
        steps: bulk.steps.slice(0, 2),
      });
      await writer.write({ screenshots: bulk.screenshots, trajectories: bulk.trajectories.slice(1), steps: bulk.steps.slice(2) });
    } finally {
      await writer.close();
    }
    const expected = await viaPrisma(db, "batch-prisma", "p-");
    expect(expected.steps).toHaveLength(3);
    expect(await viaPrisma(db, "batch-bulk", "b-")).toEqual(expected);
    expect(await viaSql(db, "batch-bulk", "b-")).toEqual(await viaSql(db, "batch-prisma", "p-"));
    await db.$disconnect();
  });

  it(`${name}: a chunk that breaks a constraint writes none of its rows`, async () => {
    const { db } = await studio();
    const writer = await openBulkWriter(db);
    try {
      const rows = chunk("x-", "batch-x");
      await writer.write({ screenshots: [], trajectories: rows.trajectories.slice(0, 1), steps: [] });
      // The second chunk repeats a trajectory id: the whole chunk is refused, its new rows too.
      await expect(writer.write({ screenshots: rows.screenshots, trajectories: rows.trajectories, steps: rows.steps })).rejects.toThrow();
    } finally {
      await writer.close();
    }
    expect(await db.importStagedTrajectory.count()).toBe(1);
    expect(await db.importStagedStep.count()).toBe(0);
    expect(await db.importStagedScreenshot.count()).toBe(0);
    await db.$disconnect();
  });
}

describe("bulk writer (SQLite)", () => suite("SQLite", () => freshStudio()));

let server: PostgresServer | undefined;
describe.skipIf(!hasPostgres)("bulk writer (PostgreSQL)", () => {
  beforeAll(() => {
    server = startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  suite("PostgreSQL", () => server!.freshDb());
});
