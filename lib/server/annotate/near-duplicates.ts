// Near-duplicate grouping over the studio's own tables (issue 27 item 3): each screenshot's perceptual hash
// is computed once and stored on its row (Screenshot.dhash), so grouping a million screenshots reads 16 hex
// digits per step instead of decoding every image again. The rule and the grouping are
// lib/domain/near-duplicates.ts, the same as `bridge dedupe` applies to an export.
//
// The import makes each hash from the decode that proves the screenshot (import-reader.worker.ts,
// import-image.ts: dHashOf, as dHashOfImage below, on the same bytes) and writes it with the screenshot's
// row, so a fresh import leaves nothing to hash here. storeScreenshotHashes is the lazy pass for rows
// imported before that (old data, and every row once the dHash's definition changed: migration
// 20261128112832_dhash_shrink_first cleared the hashes made the older way): it reads each image from the
// store and hashes it once, when grouping first needs it.
import type { default as Sharp } from "sharp";
import {
  actionToken,
  DEFAULT_MAX_SCREEN_DISTANCE,
  dHashOf,
  groupNearDuplicates,
  hashHex,
  normaliseInstruction,
  type DuplicateGroup,
  type GroupingStats,
  type TrajectorySignature,
} from "@/lib/domain/near-duplicates";
import { LIMITS } from "@/lib/domain/limits";
import { fieldsWrittenByPeople, type StepProvenance } from "@/lib/domain/provenance";
import Database from "better-sqlite3";
import { dialectOf, sqlitePath } from "../env";
import { urlOf, type Db } from "../db";
import { readScreenshot } from "../object-store";

// sharp is loaded on first use (half a second), as import-image.ts does.
let sharpModule: Promise<typeof Sharp> | undefined;
const loadSharp = (): Promise<typeof Sharp> => (sharpModule ??= import("sharp").then((m) => m.default));

/** Screenshots hashed per round trip (one SELECT, then one UPDATE each, in one transaction). */
const HASH_PAGE = 200;
/** Images decoded at once: sharp decodes on its own threads. */
const HASH_PARALLEL = 4;
/** Trajectories read per page when grouping. */
const READ_PAGE = 2_000;

/** The dHash of an image's bytes (dHashOf, as lib/bridge/dedupe.ts and the import make it). */
export async function dHashOfImage(bytes: Uint8Array): Promise<bigint> {
  const sharp = await loadSharp();
  return dHashOf(sharp(bytes, { limitInputPixels: LIMITS.screenshotPixels }));
}

/**
 * Compute and store the dHash of every screenshot that has none: those of one import batch's trajectories
 * (`batchId`), or every screenshot in the studio. Each image is read from the store and decoded once; a
 * stored hash is never recomputed. Returns how many were hashed.
 */
export async function storeScreenshotHashes(prisma: Db, opts: { batchId?: string } = {}): Promise<number> {
  let hashed = 0;
  for (;;) {
    const rows = opts.batchId
      ? await prisma.$queryRaw<{ sha256: string; mime: string }[]>`SELECT DISTINCT sc."sha256", sc."mime" FROM "Screenshot" sc
          JOIN "Step" s ON s."screenshotSha" = sc."sha256" JOIN "Trajectory" t ON t."id" = s."trajectoryId"
          WHERE t."batchId" = ${opts.batchId} AND sc."dhash" IS NULL ORDER BY sc."sha256" LIMIT ${HASH_PAGE}`
      : await prisma.$queryRaw<{ sha256: string; mime: string }[]>`SELECT "sha256", "mime" FROM "Screenshot"
          WHERE "dhash" IS NULL ORDER BY "sha256" LIMIT ${HASH_PAGE}`;
    if (rows.length === 0) return hashed;
    const hashes: string[] = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i += HASH_PARALLEL) {
      await Promise.all(
        rows.slice(i, i + HASH_PARALLEL).map(async (r, k) => {
          const { bytes } = await readScreenshot(r.sha256, r.mime, "original");
          hashes[i + k] = hashHex(await dHashOfImage(bytes));
        }),
      );
    }
    await prisma.$transaction(rows.map((r, i) => prisma.screenshot.update({ where: { sha256: r.sha256 }, data: { dhash: hashes[i]! } })));
    hashed += rows.length;
  }
}

/** One step as grouping reads it: trajectory id, instruction, status, step verdict, tool call, provenance, stored dHash. */
type SignatureRow = [string, string, string, string, string, string | null, string | null];

// Overlap and gold copies (copyOfId set) repeat their original on purpose: they are never near-duplicates.
const SIGNATURE_SQL = `SELECT t."id", t."instruction", t."status", s."verdict", s."toolCallJson", s."provenanceJson", sc."dhash"
  FROM "Trajectory" t JOIN "Step" s ON s."trajectoryId" = t."id" JOIN "Screenshot" sc ON sc."sha256" = s."screenshotSha"
  WHERE t."copyOfId" IS NULL`;

/**
 * Every step's signature columns in (trajectory id, step index) order. SQLite: one statement through the
 * raw driver, iterated (Prisma's per-row work was ~15x the query's own cost at 100k trajectories);
 * PostgreSQL: pages of READ_PAGE trajectories through Prisma.
 */
async function* signatureRows(prisma: Db): AsyncGenerator<SignatureRow> {
  const url = urlOf(prisma);
  if (dialectOf(url) === "sqlite") {
    const conn = new Database(sqlitePath(url), { readonly: true });
    try {
      yield* conn.prepare(`${SIGNATURE_SQL} ORDER BY t."id", s."index"`).raw(true).iterate() as IterableIterator<SignatureRow>;
    } finally {
      conn.close();
    }
    return;
  }
  let after = "";
  for (;;) {
    const ids = await prisma.$queryRaw<
      { id: string }[]
    >`SELECT "id" FROM "Trajectory" WHERE "id" > ${after} AND "copyOfId" IS NULL ORDER BY "id" LIMIT ${READ_PAGE}`;
    if (ids.length === 0) return;
    const last = ids[ids.length - 1]!.id;
    const rows = await prisma.$queryRaw<
      {
        id: string;
        instruction: string;
        status: string;
        verdict: string;
        toolCallJson: string;
        provenanceJson: string | null;
        dhash: string | null;
      }[]
    >`SELECT t."id", t."instruction", t."status", s."verdict", s."toolCallJson", s."provenanceJson", sc."dhash"
      FROM "Trajectory" t JOIN "Step" s ON s."trajectoryId" = t."id" JOIN "Screenshot" sc ON sc."sha256" = s."screenshotSha"
      WHERE t."id" >= ${ids[0]!.id} AND t."id" <= ${last} AND t."copyOfId" IS NULL ORDER BY t."id", s."index"`;
    for (const r of rows) yield [r.id, r.instruction, r.status, r.verdict, r.toolCallJson, r.provenanceJson, r.dhash];
    after = last;
  }
}

/** Did a person write any field of the step (the same rule as `bridge dedupe`'s keeper: fieldsWrittenByPeople)? */
function writtenByPerson(provenanceJson: string | null): boolean {
  return provenanceJson ? fieldsWrittenByPeople(JSON.parse(provenanceJson) as StepProvenance).length > 0 : false;
}

/**
 * Every trajectory's signature, read from the stored hashes (never from the images), in id order; a
 * trajectory with a step whose screenshot has no stored hash is counted in `unhashed` and left out.
 * `ordinal` is the position in id order; `key` the trajectory id; `line` 0 (no file).
 */
export async function readSignatures(prisma: Db): Promise<{ signatures: TrajectorySignature[]; unhashed: number }> {
  const signatures: TrajectorySignature[] = [];
  let unhashed = 0;
  let current: { id: string; instruction: string; status: string; steps: SignatureRow[] } | undefined;
  const finish = () => {
    if (!current) return;
    const steps = current.steps;
    if (steps.some((s) => s[6] === null)) {
      unhashed += 1;
      return;
    }
    signatures.push({
      ordinal: signatures.length + unhashed,
      line: 0,
      key: current.id,
      instruction: normaliseInstruction(current.instruction),
      actions: steps.map((s) => actionToken(JSON.parse(s[4]) as Parameters<typeof actionToken>[0])),
      screens: steps.map((s) => BigInt.asIntN(64, BigInt(`0x${s[6]!}`))),
      status: current.status,
      stepsByPeople: steps.filter((s) => writtenByPerson(s[5])).length,
      reviewedSteps: steps.filter((s) => s[3] !== "unreviewed").length,
    });
  };
  for await (const row of signatureRows(prisma)) {
    if (current?.id !== row[0]) {
      finish();
      current = { id: row[0], instruction: row[1], status: row[2], steps: [] };
    }
    current.steps.push(row);
  }
  finish();
  return { signatures, unhashed };
}

/**
 * The studio's near-duplicate groups (same normalised instruction, same actions, every screen within
 * `maxDistance` bits of dHash), each with its keeper, from the stored hashes. Screenshots without one
 * (imported since grouping last ran) are hashed first, once, and stored; `hashedNow` says how many.
 */
export async function nearDuplicateGroups(
  prisma: Db,
  maxDistance = DEFAULT_MAX_SCREEN_DISTANCE,
): Promise<{ groups: DuplicateGroup[]; stats: GroupingStats; hashedNow: number }> {
  const hashedNow = await storeScreenshotHashes(prisma);
  const { signatures } = await readSignatures(prisma);
  return { ...groupNearDuplicates(signatures, maxDistance), hashedNow };
}

/** Where a trajectory stands in its near-duplicate group: the group's keeper, whether it is that keeper, the group's size. */
export type NearDuplicateMembership = { keeperId: string; isKeeper: boolean; groupSize: number };

/**
 * Every trajectory that is in a near-duplicate group (keepers and others), by id. `among` groups only
 * those trajectories (a release groups its own matching work, so a keeper outside the filter never makes
 * its re-runs inside it disappear). Computed once per call from the stored hashes (missing ones are hashed
 * and stored first); callers call it once per request or cut, never per row.
 */
export async function nearDuplicateMembership(
  prisma: Db,
  opts: { among?: ReadonlySet<string>; maxDistance?: number } = {},
): Promise<Map<string, NearDuplicateMembership>> {
  await storeScreenshotHashes(prisma);
  const { signatures } = await readSignatures(prisma);
  const among = opts.among;
  const { groups } = groupNearDuplicates(among ? signatures.filter((s) => among.has(s.key)) : signatures, opts.maxDistance);
  const out = new Map<string, NearDuplicateMembership>();
  for (const g of groups) {
    const groupSize = g.duplicates.length + 1;
    out.set(g.keeper.key, { keeperId: g.keeper.key, isKeeper: true, groupSize });
    for (const d of g.duplicates) out.set(d.key, { keeperId: g.keeper.key, isKeeper: false, groupSize });
  }
  return out;
}

/**
 * What the studio-wide groups depend on, read cheaply: trajectories (count, last change: instruction, status),
 * steps (count, last change: actions, verdicts, who wrote them) and screenshots not hashed yet. Equal stamps,
 * equal groups; a full table scan of max(updatedAt) costs a fraction of a second where grouping costs seconds.
 */
async function studioStamp(prisma: Db): Promise<string> {
  const [row] = await prisma.$queryRaw<{ t: unknown; tu: unknown; s: unknown; su: unknown; u: unknown }[]>`SELECT
    (SELECT COUNT(*) FROM "Trajectory") AS "t", (SELECT MAX("updatedAt") FROM "Trajectory") AS "tu",
    (SELECT COUNT(*) FROM "Step") AS "s", (SELECT MAX("updatedAt") FROM "Step") AS "su",
    (SELECT COUNT(*) FROM "Screenshot" WHERE "dhash" IS NULL) AS "u"`;
  return `${urlOf(prisma)}|${JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
}

let cached: { stamp: string; groups: Promise<Map<string, NearDuplicateMembership>> } | undefined;

/**
 * The studio-wide membership (nearDuplicateMembership over every trajectory), kept in memory while the
 * studio's stamp (studioStamp) stays the same: the list filtered to near-duplicates and assignment read it
 * per request, and regrouping 100k trajectories takes ~24 s (lib/bridge/README.md) against one stamp query.
 * Concurrent requests with the same stamp share one computation.
 */
export async function studioNearDuplicates(prisma: Db): Promise<Map<string, NearDuplicateMembership>> {
  const stamp = await studioStamp(prisma);
  if (cached?.stamp !== stamp) {
    const groups = nearDuplicateMembership(prisma);
    cached = { stamp, groups };
    // A failed computation is not kept.
    groups.catch(() => {
      if (cached?.groups === groups) cached = undefined;
    });
  }
  return cached.groups;
}
