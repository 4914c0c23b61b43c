// Gold tasks (issue 26 item 4): approved trajectories an admin marks as gold are mixed, unannounced,
// into annotators' "Start next task" at the project's rate. The annotator gets a fresh copy started
// from the model's output (an ordinary Trajectory row with copyOfId and copyKind "gold"; nothing the
// API answers them tells it apart), and what they hand in is scored against the gold annotation with
// the agreement measures of lib/domain/agreement.ts.
import { stepAgreement, trajectoryAgreement, STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS } from "@/lib/domain/agreement";
import { stepAnnotationColumns } from "./step-row";
import { annotationOf, trajectoryAnnotationOf } from "@/lib/domain/annotation";
import { goldMarkInput, goldRateInput, type GoldAccuracy, type GoldMarkInput, type GoldRateInput, type GoldRates } from "@/lib/domain/gold";
import type { Actor } from "@/lib/domain/permissions";
import { splitThought, composeThought } from "@/lib/domain/thought";
import { originalOutputSchema } from "@/lib/domain/trajectory";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db, readOriginalColumn } from "../db";
import { appError, fromStore } from "../errors";
import { originalsHeldBy } from "./overlap";
import { getTrajectory } from "../annotate/trajectories";
import { workHeldBy } from "../annotate/one-lease";
import type { Dialect } from "../env";

/** Below this share of agreed comparisons against gold a person is flagged (the dashboard may ask for another). */
export const DEFAULT_GOLD_THRESHOLD = 0.8;

/** Mark approved trajectories as gold, or unmark them (admins). Only approved, original work can be gold. */
export async function markGold(
  { actor, ...input }: { actor: Actor } & GoldMarkInput,
  prisma: Db = defaultDb(),
): Promise<{ changed: number }> {
  authorize(actor, "trajectory.assign");
  const data = goldMarkInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const rows = await tx.trajectory.findMany({
      where: { id: { in: data.trajectoryIds } },
      select: { id: true, status: true, copyOfId: true, isGold: true },
    });
    const missing = data.trajectoryIds.find((id) => !rows.some((r) => r.id === id));
    if (missing !== undefined) throw appError("not_found", "error.trajectoryMissing", { id: missing });
    const wrong = data.isGold ? rows.find((r) => r.status !== "approved" || r.copyOfId !== null) : undefined;
    if (wrong) throw appError("conflict", "error.goldNotApproved", { id: wrong.id });
    const changing = rows.filter((r) => r.isGold !== data.isGold);
    await tx.trajectory.updateMany({ where: { id: { in: changing.map((r) => r.id) } }, data: { isGold: data.isGold } });
    for (const r of changing)
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "trajectory.gold",
        entityType: "trajectory",
        entityId: r.id,
        before: { isGold: r.isGold },
        after: { isGold: data.isGold },
      });
    return { changed: changing.length };
  });
}

/** Set the share 0..1 of a person's takes that are gold tasks, per project (null or 0: none). Admins. */
export async function setGoldRate(
  { actor, ...input }: { actor: Actor } & GoldRateInput,
  prisma: Db = defaultDb(),
): Promise<{ rate: number | null }> {
  authorize(actor, "project.configure");
  const data = goldRateInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const project = await tx.project.findUnique({ where: { name: data.project }, select: { id: true, goldRate: true } });
    if (!project) throw appError("not_found", "error.overlapProjectMissing", { name: data.project });
    await tx.project.update({ where: { id: project.id }, data: { goldRate: data.rate } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "project.goldRate",
      entityType: "project",
      entityId: project.id,
      before: { goldRate: project.goldRate },
      after: { goldRate: data.rate },
    });
    return { rate: data.rate };
  });
}

/** Every project's gold rate and its number of gold tasks, by name (admins: the projects page). */
export async function listGoldRates({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<GoldRates> {
  authorize(actor, "project.configure");
  const rows = await prisma.project.findMany({
    orderBy: { name: "asc" },
    select: { name: true, goldRate: true, _count: { select: { trajectories: { where: { isGold: true, copyOfId: null } } } } },
  });
  return { projects: rows.map((p) => ({ project: p.name, rate: p.goldRate, goldTasks: p._count.trajectories })) };
}

/**
 * Called by "Start next task" before it takes ordinary work: when the person's share of gold tasks
 * would fall below the rate with this take (floor(rate x (takes + 1)) > gold tasks so far, so a rate
 * of 0.25 makes every fourth take gold), a fresh copy of a gold trajectory they neither annotated nor
 * had before is made and given to them with the same lease as any take. Null when it is not gold's
 * turn or no gold task fits. Like every take, it holds the person's row first (lib/server/annotate/one-lease.ts):
 * a press of theirs that took something meanwhile wins, and that task is returned instead.
 */
export async function takeGoldTask(prisma: Db, actor: Actor, leaseUntil: Date, dialect: Dialect): Promise<string | null> {
  const golds = await prisma.trajectory.findMany({
    where: {
      isGold: true,
      status: "approved",
      copyOfId: null,
      project: { goldRate: { gt: 0 } },
      // The person who wrote the answer key knows it.
      OR: [{ assigneeId: null }, { assigneeId: { not: actor.id } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, project: { select: { goldRate: true } } },
  });
  if (golds.length === 0) return null;
  const held = new Set(await originalsHeldBy(prisma, actor.id));
  const gold = golds.find((g) => !held.has(g.id));
  if (!gold) return null;
  const [takes, goldTakes] = await Promise.all([
    prisma.trajectory.count({ where: { assigneeId: actor.id } }),
    prisma.trajectory.count({ where: { assigneeId: actor.id, copyKind: "gold" } }),
  ]);
  if (Math.floor((gold.project.goldRate ?? 0) * (takes + 1)) <= goldTakes) return null;
  return prisma.$transaction(async (tx) => {
    const held = await workHeldBy(tx, actor.id, dialect);
    if (held !== null) return held;
    const t = await tx.trajectory.findUniqueOrThrow({ where: { id: gold.id }, include: { steps: { orderBy: { index: "asc" } } } });
    const copy = await tx.trajectory.create({
      data: {
        projectId: t.projectId,
        fingerprint: `${t.fingerprint}:gold:${actor.id}`,
        source: t.source,
        sourceRef: t.sourceRef,
        app: t.app,
        instruction: t.instruction,
        systemPrompt: t.systemPrompt,
        originalOutcome: t.originalOutcome,
        stepCount: t.stepCount,
        batchId: t.batchId,
        metaJson: t.metaJson,
        copyOfId: t.id,
        copyKind: "gold",
        assigneeId: actor.id,
        leaseUntil,
        steps: {
          create: t.steps.map((s) => {
            // The model's output as imported, never the gold answer: the person corrects it afresh.
            const original = fromStore(originalOutputSchema, readOriginalColumn(s.originalJson).original, `step ${s.id}`);
            const thoughtText = original.thought ?? "";
            const parts = splitThought(thoughtText);
            return {
              index: s.index,
              screenshotSha: s.screenshotSha,
              originalJson: s.originalJson,
              ...stepAnnotationColumns({
                thought: { ...parts, text: thoughtText || composeThought(parts) },
                clearAction: original.clearAction ?? "",
                toolCall: original.toolCall,
                box: original.box ?? null,
                verdict: "unreviewed", // the column's default: nobody has judged the copy yet
              }),
              candidateBoxJson: s.candidateBoxJson,
            };
          }),
        },
      },
      select: { id: true },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.take",
      entityType: "trajectory",
      entityId: copy.id,
      before: { copyOfId: t.id, copyKind: "gold" },
      after: { assigneeId: actor.id, leaseUntil: leaseUntil.toISOString() },
    });
    return copy.id;
  });
}

/**
 * Each person's accuracy against gold: every gold copy they handed in (submitted or approved) compared
 * with its gold trajectory, field by field, with the agreement measures (a point inside the gold box
 * is right, wherever in it). A person whose share of agreed comparisons, all fields together, is below
 * `threshold` is flagged. Reviewers and admins.
 */
export async function goldAccuracy(
  { actor, threshold = DEFAULT_GOLD_THRESHOLD }: { actor: Actor; threshold?: number },
  prisma: Db = defaultDb(),
): Promise<GoldAccuracy> {
  authorize(actor, "trajectory.review");
  const copies = await prisma.trajectory.findMany({
    where: { copyKind: "gold", status: { in: ["submitted", "approved"] }, assigneeId: { not: null } },
    select: { id: true, copyOfId: true, assignee: { select: { email: true } } },
    orderBy: { id: "asc" },
  });
  const golds = new Map<string, Awaited<ReturnType<typeof getTrajectory>>>();
  const byPerson = new Map<string, { tasks: number; fields: Map<string, { compared: number; agreed: number }> }>();
  for (const c of copies) {
    const goldId = c.copyOfId!;
    if (!golds.has(goldId)) golds.set(goldId, await getTrajectory(goldId, prisma));
    const gold = golds.get(goldId)!;
    const mine = await getTrajectory(c.id, prisma);
    const email = c.assignee!.email;
    const p = byPerson.get(email) ?? { tasks: 0, fields: new Map() };
    byPerson.set(email, p);
    p.tasks += 1;
    const add = (f: string, agreed: boolean | undefined) => {
      if (agreed === undefined) return;
      const x = p.fields.get(f) ?? { compared: 0, agreed: 0 };
      x.compared += 1;
      if (agreed) x.agreed += 1;
      p.fields.set(f, x);
    };
    const tr = trajectoryAgreement(
      trajectoryAnnotationOf(mine),
      trajectoryAnnotationOf(gold),
      Math.min(mine.steps.length, gold.steps.length),
    );
    for (const f of TRAJECTORY_AGREEMENT_FIELDS) add(f, tr[f]);
    for (const [i, s] of mine.steps.entries()) {
      const g = gold.steps[i];
      if (!g) continue;
      const fields = stepAgreement(annotationOf(s), annotationOf(g), g.elements ?? s.elements);
      for (const f of STEP_AGREEMENT_FIELDS) add(f, fields[f]);
    }
  }
  const people = [...byPerson]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([email, p]) => {
      const fields = [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS].map((field) => {
        const x = p.fields.get(field) ?? { compared: 0, agreed: 0 };
        return { field, ...x, rate: x.compared === 0 ? null : x.agreed / x.compared };
      });
      const compared = fields.reduce((n, f) => n + f.compared, 0);
      const agreed = fields.reduce((n, f) => n + f.agreed, 0);
      const accuracy = compared === 0 ? null : agreed / compared;
      return { email, goldTasks: p.tasks, accuracy, isFlagged: accuracy !== null && accuracy < threshold, fields };
    });
  return { threshold, people };
}
