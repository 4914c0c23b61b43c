import { LIMITS } from "@/lib/domain/limits";
import { PREFILL_FIELDS, prefillDecision, type PrefillSkipReason, type StartModelJobInput } from "@/lib/domain/model";
import { HANDED_IN_STATUSES, isHandedIn, taskStatusSchema } from "@/lib/domain/status";
import { recordAudit, type AuditActor } from "../people";
import type { Db } from "../db";
import { appError, fromStore } from "../errors";
import type { ModelConfig } from "./settings";
import { storedProvenance, stepFromRow } from "../annotate";
import { askThought } from "./suggest";

// Prefill jobs' own work (jobs.ts): choosing the trajectories matching the list's filters, and writing one
// step's suggested thought where no person wrote one.

/** At most this many trajectories in one job started from the list's filters. */
export const MAX_MATCHING_TRAJECTORIES = 10_000;

/** Trajectories read at a time while looking for ones a job started from the list's filters may work on. */
const MATCHING_PAGE = 500;

/**
 * The trajectories matching the list's filters (the same fields the list page keeps in its URL) that
 * have a step the job may write (`prefillDecision`: by default a step no person wrote, in a trajectory
 * not submitted or approved), in the list's order.
 */
export async function prefillMatching(prisma: Db, f: NonNullable<StartModelJobInput["matching"]>, include: boolean): Promise<string[]> {
  const assignee = f.assignee?.trim().toLowerCase();
  const where = {
    ...(f.project ? { project: { name: f.project } } : {}),
    ...(f.app ? { app: f.app } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.q ? { instruction: { contains: f.q } } : {}),
    ...(assignee === "none" ? { assigneeId: null } : assignee ? { assignee: { email: assignee } } : {}),
    // Handed-in work is never a candidate unless included: no need to read its steps.
    ...(include ? {} : { NOT: { status: { in: [...HANDED_IN_STATUSES] } } }),
  };
  const found: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await prisma.trajectory.findMany({
      where,
      select: { id: true, status: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MATCHING_PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (page.length === 0) return found;
    cursor = page[page.length - 1]!.id;
    const handedIn = new Map(page.map((t) => [t.id, isHandedIn(fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`))]));
    const steps = await prisma.step.findMany({
      where: { trajectoryId: { in: page.map((t) => t.id) } },
      select: { trajectoryId: true, provenanceJson: true },
    });
    // A trajectory matches while it has a step whose thought nobody wrote yet, neither a person nor an earlier
    // job (a job's thought may be asked again, but only for work an admin selects, never by filter).
    const writable = new Set(
      steps
        .filter((s) => {
          const prov = storedProvenance(s.provenanceJson);
          const decision = prefillDecision(prov, { isHandedIn: handedIn.get(s.trajectoryId)!, includePeoplesWork: include });
          return decision.write && prov !== null && PREFILL_FIELDS.every((f) => prov[f] === undefined);
        })
        .map((s) => s.trajectoryId),
    );
    found.push(...page.filter((t) => writable.has(t.id)).map((t) => t.id));
    if (found.length > MAX_MATCHING_TRAJECTORIES)
      throw appError("unprocessable", "error.jobTooManyMatch", { n: MAX_MATCHING_TRAJECTORIES });
  }
}

/** What one item cost, and why it was skipped (a PrefillSkipReason) when it was. */
export type ItemResult = { prompt: number; completion: number; skipped?: string };

/**
 * Pre-annotate one step: decide from its provenance and its trajectory's status whether the job may
 * write its thought (`prefillDecision`), ask for one, then write it only if the step and its
 * trajectory are still as they were read, in one transaction with the suggestion row and the audit
 * row. A step a person saved in the meantime keeps the person's work (the suggestion is still
 * recorded, for them to accept if they like). A skipped step's detail is its PrefillSkipReason.
 * `guard` runs the write only while the job is alive (job-runner.ts whileJobAlive; null: discarded).
 */
export async function prefillStep(
  prisma: Db,
  config: ModelConfig,
  {
    jobId,
    stepId,
    actor,
    include,
    signal,
    guard,
  }: {
    jobId: string;
    stepId: string;
    actor: AuditActor;
    include: boolean;
    signal: AbortSignal;
    guard: (write: (tx: Db) => Promise<ItemResult>) => Promise<ItemResult | null>;
  },
): Promise<ItemResult | null> {
  const skip = (reason: PrefillSkipReason, tokens = { prompt: 0, completion: 0 }): ItemResult => ({ ...tokens, skipped: reason });
  const step = await prisma.step.findUnique({ where: { id: stepId }, include: { screenshot: true, trajectory: true } });
  if (!step) return skip("gone");
  const status = fromStore(taskStatusSchema, step.trajectory.status, `status of trajectory ${step.trajectoryId}`);
  const prev = storedProvenance(step.provenanceJson);
  const decision = prefillDecision(prev, { isHandedIn: isHandedIn(status), includePeoplesWork: include });
  if (!decision.write) return skip(decision.reason);
  const before = await prisma.step.findMany({
    where: { trajectoryId: step.trajectoryId, index: { lt: step.index } },
    orderBy: { index: "asc" },
    include: { screenshot: true },
  });
  const asked = await askThought(
    config,
    { step, view: stepFromRow(step), history: before.map(stepFromRow), trajectory: step.trajectory },
    { caller: { jobId }, signal },
  );
  const out = asked.output as { state: string; nextAction: string; purpose: string; text: string };
  const tokens = { prompt: asked.promptTokens, completion: asked.completionTokens };
  return guard(async (tx) => {
    const suggestion = await tx.stepSuggestion.create({
      data: {
        stepId,
        trajectoryId: step.trajectoryId,
        kind: "thought",
        origin: "batch",
        prompt: asked.prompt,
        model: asked.model,
        outputJson: JSON.stringify(out),
        rawText: asked.rawText.slice(0, LIMITS.modelAnswer),
        promptTokens: asked.promptTokens,
        completionTokens: asked.completionTokens,
        jobId,
      },
    });
    const at = new Date().toISOString();
    const mark = {
      source: "prefilled" as const,
      by: actor.label,
      suggestionId: suggestion.id,
      prompt: asked.prompt,
      model: asked.model,
      at,
    };
    // The other fields keep their entries (a person's clearAction, an earlier job's marks are replaced only on the thought).
    const written = Object.fromEntries(PREFILL_FIELDS.map((f) => [f, mark]));
    const provenance = { ...prev, ...written };
    // Written only if nothing changed since the decision: the step's version and provenance, and the
    // trajectory's status (a trajectory handed in meanwhile is left alone unless included).
    const { count } = await tx.step.updateMany({
      where: {
        id: stepId,
        version: step.version,
        provenanceJson: step.provenanceJson,
        trajectory: { is: include ? { status } : { status: { notIn: [...HANDED_IN_STATUSES] } } },
      },
      data: {
        thoughtState: out.state,
        thoughtNext: out.nextAction,
        thoughtPurpose: out.purpose,
        thought: out.text,
        provenanceJson: JSON.stringify(provenance),
        version: { increment: 1 },
      },
    });
    if (count !== 1) return skip("changed-meanwhile", tokens);
    await recordAudit(tx, {
      actor,
      action: "step.prefill",
      entityType: "step",
      entityId: stepId,
      before: {
        thought: { state: step.thoughtState, nextAction: step.thoughtNext, purpose: step.thoughtPurpose, text: step.thought },
        version: step.version,
      },
      after: { thought: out, provenance: written, version: step.version + 1, jobId },
    });
    return tokens;
  });
}
