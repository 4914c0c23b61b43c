import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { COOKBOOK_DIR } from "@/fixtures";
import { generateDemoDataset } from "@/lib/demo/generate";
import { writeCookbookDataset } from "@/lib/demo/cookbook";
import { dataDir } from "../env";
import { db as defaultDb, type Db } from "../db";
import { importFile, type ImportProgress } from "../import";
import { createUser, SYSTEM_ACTOR } from "../people";

export const DEMO_PROJECT = "demo";

/** Demo accounts, one per role. Demo only: real studios create people with `studio users add`. */
export const DEMO_ACCOUNTS = [
  { email: "admin@studio.local", password: "studio-admin", role: "admin", name: "Ada Admin" },
  { email: "reviewer@studio.local", password: "studio-reviewer", role: "reviewer", name: "Rui Reviewer" },
  { email: "annotator@studio.local", password: "studio-annotator", role: "annotator", name: "An Annotator" },
] as const;

/** Give the demo annotator a few trajectories, so their "My tasks" and list are not empty. */
async function assignDemoWork(prisma: Db): Promise<void> {
  const annotator = await prisma.user.findUnique({ where: { email: DEMO_ACCOUNTS[2].email } });
  if (!annotator) return;
  const first = await prisma.trajectory.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: DEMO_ASSIGNED,
    select: { id: true },
  });
  await prisma.trajectory.updateMany({ where: { id: { in: first.map((t) => t.id) } }, data: { assigneeId: annotator.id } });
}

/** How many demo trajectories the demo annotator starts with. */
export const DEMO_ASSIGNED = 5;

/** Create the demo accounts when the studio has no people at all. */
export async function seedDemoAccounts(prisma: Db = defaultDb()): Promise<void> {
  // Only into a studio nobody uses yet: never add known passwords to a real team's database.
  if ((await prisma.user.count()) > 0) return;
  for (const a of DEMO_ACCOUNTS) {
    if (await prisma.user.findUnique({ where: { email: a.email } })) continue;
    await createUser({ actor: SYSTEM_ACTOR, ...a }, prisma);
  }
}
const COOKBOOK_SAMPLES = COOKBOOK_DIR;

/**
 * Load the demo data through the real import path: synthetic Mobile-R1-format trajectories, and
 * the Qwen cookbook's two real screenshots (model clicks in the resized frame). Skips work already done.
 */
export async function seedDemo(opts: { trajectories?: number; seed?: number; log?: (s: string) => void; db?: Db } = {}) {
  const prisma = opts.db ?? defaultDb();
  const log = opts.log ?? (() => {});
  await seedDemoAccounts(prisma);
  if ((await prisma.trajectory.count()) > 0) {
    log("demo data already loaded");
    return;
  }
  const work = path.join(dataDir(), "demo-source");
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const onProgress = (p: ImportProgress) => log(`${p.phase}: ${p.trajectories} trajectories, ${p.steps} steps`);

  const synthetic = path.join(work, "synthetic");
  const made = await generateDemoDataset({
    outDir: synthetic,
    trajectories: opts.trajectories ?? 60,
    seed: opts.seed ?? 7,
    onProgress: (done, total) => log(`drawing demo screenshots: ${done}/${total} trajectories`),
  });
  const r1 = await importFile({
    file: path.join(synthetic, "data.jsonl"),
    format: "mobile-r1",
    project: DEMO_PROJECT,
    onProgress,
    db: prisma,
  });
  if (!r1.ok) throw new Error(`demo import failed: ${r1.problems.map((p) => p.message).join("; ")}`);
  log(`imported ${made.trajectories} synthetic trajectories (${made.steps} steps)`);
  await assignDemoWork(prisma);

  const cookbook = path.join(work, "cookbook");
  await writeCookbookDataset(cookbook, COOKBOOK_SAMPLES);
  const r2 = await importFile({ file: path.join(cookbook, "data.jsonl"), format: "mobile-r1", project: DEMO_PROJECT, db: prisma });
  if (!r2.ok) throw new Error(`cookbook import failed: ${r2.problems.map((p) => p.message).join("; ")}`);
  log("imported the Qwen cookbook's two real screenshots");
}
