// `npx tsx bench/near-duplicates.ts [--trajectories 100000] [--steps 4] [--planted 1000] [--seed 7]`
// Near-duplicate grouping at scale from the hashes stored at import (issue 27 item 3): a fresh SQLite studio
// holding N generated trajectories whose screenshots carry a stored dHash (as an import leaves them), with
// planted re-runs (same task and actions, the instruction re-cased and re-spaced, every screen within 0-6 bits
// of the original's) and decoys (same instruction and actions, screens 20+ bits away on one step). The rows
// are written with the raw driver (an import of 100k trajectories of real images is another bench's
// business); what is timed is the studio's own code: readSignatures (the stored hashes read into
// signatures) and groupNearDuplicates, reported as a ratio to reading the hashes, and the list filtered to
// near-duplicates, first (grouping) and again (studio unchanged: the cached groups). It checks that every
// planted re-run is grouped with its original, that no decoy is, and that nothing else is grouped.
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { groupNearDuplicates, hashHex } from "@/lib/domain/near-duplicates";
import { mulberry32 } from "@/lib/domain/random";
import { createDb } from "@/lib/server/db";
import { migrate } from "@/lib/server/db/migrate";
import { CLI_ACTOR } from "@/lib/server/people/audit";
import { readSignatures } from "@/lib/server/annotate/near-duplicates";
import { listTrajectories } from "@/lib/server/annotate/trajectory-list";

const { values: args } = parseArgs({
  options: {
    trajectories: { type: "string", default: "100000" },
    steps: { type: "string", default: "4" },
    planted: { type: "string", default: "1000" },
    seed: { type: "string", default: "7" },
  },
});
const N = Number(args.trajectories);
const STEPS = Number(args.steps);
const PLANTED = Number(args.planted);
const random = mulberry32(Number(args.seed));

const rand64 = (): bigint => (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
/** `hash` with `bits` distinct random bits flipped. */
function flip(hash: bigint, bits: number): bigint {
  const at = new Set<number>();
  while (at.size < bits) at.add(Math.floor(random() * 64));
  let h = hash;
  for (const b of at) h ^= 1n << BigInt(b);
  return BigInt.asUintN(64, h);
}
const ACTIONS = [
  '{"action":"click","coordinate":[10,20]}',
  '{"action":"swipe","coordinate":[1,2],"coordinate2":[3,4]}',
  '{"action":"type","text":"hello"}',
];
const VERBS = ["Open", "Set", "Find", "Send", "Turn on", "Delete", "Share", "Search for"];
const THINGS = ["the alarm", "a timer", "the first mail", "Wi-Fi", "the photo", "a note", "the contact Ann", "flights to Paris"];

type Gen = { id: string; instruction: string; actions: string[]; screens: bigint[] };

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-near-dup-"));
  const url = `file:${path.join(dir, "studio.db")}`;
  process.env.STUDIO_DATA_DIR = dir;
  await migrate(url);

  // Originals: instructions from a small vocabulary (many trajectories share an instruction, as real data does).
  const originals: Gen[] = [];
  const pad = (i: number) => String(i).padStart(7, "0");
  const base = N - 2 * PLANTED;
  for (let i = 0; i < base; i++) {
    originals.push({
      id: `t${pad(i)}`,
      instruction: `${VERBS[Math.floor(random() * VERBS.length)]} ${THINGS[Math.floor(random() * THINGS.length)]} ${Math.floor(random() * 50)}`,
      actions: Array.from({ length: STEPS }, () => ACTIONS[Math.floor(random() * ACTIONS.length)]!),
      screens: Array.from({ length: STEPS }, rand64),
    });
  }
  const planted: { original: string; copy: Gen }[] = [];
  const decoys: Gen[] = [];
  for (let k = 0; k < PLANTED; k++) {
    const o = originals[Math.floor((k * base) / PLANTED)]!;
    planted.push({
      original: o.id,
      copy: {
        id: `t${pad(base + k)}`,
        instruction: `  ${o.instruction.toUpperCase().replace(/ /g, "  ")} `,
        actions: o.actions,
        screens: o.screens.map((h) => flip(h, Math.floor(random() * 7))),
      },
    });
    const far = Math.floor(random() * STEPS);
    decoys.push({
      id: `t${pad(base + PLANTED + k)}`,
      instruction: o.instruction,
      actions: o.actions,
      screens: o.screens.map((h, s) => (s === far ? flip(h, 20 + Math.floor(random() * 12)) : h)),
    });
  }
  const all = [...originals, ...planted.map((p) => p.copy), ...decoys];

  const t0 = performance.now();
  const raw = new Database(path.join(dir, "studio.db"));
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = OFF");
  const now = new Date().toISOString();
  raw.prepare(`INSERT INTO "Project" ("id", "name") VALUES ('p', 'bench')`).run();
  const shot = raw.prepare(
    `INSERT INTO "Screenshot" ("sha256", "width", "height", "bytes", "mime", "dhash") VALUES (?, 1080, 2400, 1, 'image/png', ?)`,
  );
  const traj = raw.prepare(
    `INSERT INTO "Trajectory" ("id", "projectId", "fingerprint", "source", "app", "instruction", "stepCount", "createdAt", "updatedAt") VALUES (?, 'p', ?, 'ui-s1', 'App', ?, ?, ?, ?)`,
  );
  const step = raw.prepare(
    `INSERT INTO "Step" ("id", "trajectoryId", "index", "screenshotSha", "originalJson", "toolCallJson", "updatedAt") VALUES (?, ?, ?, ?, '{}', ?, ?)`,
  );
  raw.transaction(() => {
    for (const t of all) {
      traj.run(t.id, t.id, t.instruction, STEPS, now, now);
      t.screens.forEach((h, s) => {
        const sha = `${t.id}-${s}`;
        shot.run(sha, hashHex(h));
        step.run(`${t.id}-s${s}`, t.id, s, sha, t.actions[s]!, now);
      });
    }
  })();
  raw.close();
  const written = performance.now() - t0;

  const db = createDb(url);
  const r0 = performance.now();
  const { signatures, unhashed } = await readSignatures(db);
  const read = performance.now() - r0;
  const g0 = performance.now();
  const { groups, stats } = groupNearDuplicates(signatures);
  const group = performance.now() - g0;

  // The list filtered to near-duplicates (GET /api/trajectories?duplicates=only), as the CLI caller: the first
  // request groups (stamp + read + group), the next finds the studio unchanged and reads only the stamp.
  const l0 = performance.now();
  const cold = await listTrajectories({ actor: CLI_ACTOR, duplicates: "only", page: 1, pageSize: 50 }, db);
  const listCold = performance.now() - l0;
  const l1 = performance.now();
  const warm = await listTrajectories({ actor: CLI_ACTOR, duplicates: "only", page: 2, pageSize: 50 }, db);
  const listWarm = performance.now() - l1;
  if (cold.total !== 2 * PLANTED || warm.rows.length !== 50)
    throw new Error(`list: ${cold.total} near-duplicates listed, expected ${2 * PLANTED}`);

  const groupOf = new Map<string, number>();
  groups.forEach((g, i) => [g.keeper, ...g.duplicates].forEach((m) => groupOf.set(m.key, i)));
  const missed = planted.filter((p) => groupOf.get(p.copy.id) === undefined || groupOf.get(p.copy.id) !== groupOf.get(p.original)).length;
  const decoysGrouped = decoys.filter((d) => groupOf.has(d.id)).length;
  const expected = new Set(planted.flatMap((p) => [p.original, p.copy.id]));
  const unexpected = [...groupOf.keys()].filter((k) => !expected.has(k)).length;
  const result = {
    trajectories: signatures.length,
    screenshots: signatures.length * STEPS,
    unhashed,
    planted: PLANTED,
    decoys: decoys.length,
    groups: groups.length,
    missedPlanted: missed,
    decoysGrouped,
    unexpectedGrouped: unexpected,
    candidatePairs: stats.candidatePairs,
    verifiedPairs: stats.verifiedPairs,
    writeMs: Math.round(written),
    readHashesMs: Math.round(read),
    groupMs: Math.round(group),
    totalMs: Math.round(read + group),
    ratioTotalToRead: Number(((read + group) / read).toFixed(2)),
    ratioGroupToRead: Number((group / read).toFixed(2)),
    listDuplicatesFirstMs: Math.round(listCold),
    listDuplicatesCachedMs: Math.round(listWarm),
    load: os.loadavg().map((l) => Number(l.toFixed(1))),
    cores: os.availableParallelism(),
  };
  console.log(JSON.stringify(result, null, 2));
  await db.$disconnect();
  if (missed > 0 || decoysGrouped > 0 || unexpected > 0 || unhashed > 0) process.exit(1);
}

await main();
