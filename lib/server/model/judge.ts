import { LIMITS } from "@/lib/domain/limits";
import { cohensKappa, emptyConfusion, parseJudgeReply, type Confusion, type JudgeAgreement } from "@/lib/domain/model";
import { outcomeSchema, type Outcome } from "@/lib/domain/trajectory";
import type { Actor } from "@/lib/domain/permissions";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { fenceData } from "@/lib/domain/prompt";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { chat, type ChatMessage, type ChatPart } from "./chat";
import { fill, loadPrompt, PROMPTS } from "./prompt-files";
import type { ModelConfig } from "./settings";
import type { ModelCaller } from "./budget";
import { authorize } from "../people";
import { stepFromRow } from "../annotate";
import { screenshotDataUrl, unusable } from "./suggest";
import { env } from "../env";

/** At most this many screenshots go with one judge request (the last ones: where completion shows). */
export const JUDGE_MAX_IMAGES = env().STUDIO_JUDGE_MAX_IMAGES ?? 8;

/** Trajectories whose outcome people have settled: approved, not discarded, with an outcome. */
export const REVIEWED_WHERE = { status: "approved", isDiscarded: false, outcome: { not: null } } as const;

/**
 * The judge request (prompt judge.v2): the task, and the trajectory as executed (the agent's own
 * thought and action per step, as imported, each fenced as data), with the last JUDGE_MAX_IMAGES
 * screenshots.
 */
export async function judgeMessages(prisma: Db, trajectoryId: string): Promise<{ prompt: string; messages: ChatMessage[] }> {
  const t = await prisma.trajectory.findUnique({
    where: { id: trajectoryId },
    include: { steps: { orderBy: { index: "asc" }, include: { screenshot: true } } },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: trajectoryId });
  const p = await loadPrompt(PROMPTS.judge);
  const firstImage = Math.max(0, t.steps.length - JUDGE_MAX_IMAGES);
  const steps = t.steps.map((s) => {
    const v = stepFromRow(s);
    const n = s.index + 1;
    const said = v.original.thought ? `\nThought:\n${fenceData(`step-${n}-thought`, v.original.thought)}` : "";
    const img = s.index >= firstImage ? ` (screenshot ${s.index - firstImage + 1} below)` : "";
    return `Step ${n}${img}:${said}\nAction:\n${fenceData(`step-${n}-action`, formatMobileUseCall(v.original.toolCall))}`;
  });
  const imageNote =
    firstImage === 0
      ? "A screenshot of every step follows, in order."
      : `Screenshots of the last ${t.steps.length - firstImage} steps follow, in order.`;
  const user = fill(p.user, {
    instruction: fenceData("task", t.instruction),
    app: fenceData("app", t.app),
    step_count: t.steps.length,
    steps: steps.join("\n\n"),
    image_note: imageNote,
  });
  const parts: ChatPart[] = [{ type: "text", text: user }];
  for (const s of t.steps.slice(firstImage))
    parts.push({ type: "image_url", image_url: { url: await screenshotDataUrl(s.screenshot.sha256, s.screenshot.mime) } });
  return {
    prompt: p.name,
    messages: [
      { role: "system", content: p.system },
      { role: "user", content: parts },
    ],
  };
}

/**
 * Ask the judge about one trajectory and record its verdict (table JudgeVerdict). `write` runs the
 * insert (a job passes one that writes only while the job has not been cancelled; null: nothing
 * written). The screenshots are read only once the request's turn has come.
 */
export async function judgeTrajectory(
  config: ModelConfig,
  trajectoryId: string,
  jobId: string | null,
  prisma: Db = defaultDb(),
  opts: { caller?: ModelCaller; signal?: AbortSignal; guard?: <T>(write: (db: Db) => Promise<T>) => Promise<T | null> } = {},
) {
  const prompt = PROMPTS.judge;
  const a = await chat(config, async () => (await judgeMessages(prisma, trajectoryId)).messages, {
    maxTokens: 400,
    caller: opts.caller ?? { jobId: jobId ?? "judge" },
    signal: opts.signal,
  });
  let v: ReturnType<typeof parseJudgeReply>;
  try {
    v = parseJudgeReply(a.text);
  } catch (e) {
    throw unusable(config, (e as Error).message, a);
  }
  const guard = opts.guard ?? (<T>(write: (db: Db) => Promise<T>) => write(prisma));
  const row = await guard((db) =>
    db.judgeVerdict.create({
      data: {
        trajectoryId,
        jobId,
        prompt,
        model: a.model,
        outcome: v.outcome,
        isConsistent: v.isConsistent,
        reason: v.reason,
        rawText: a.text.slice(0, LIMITS.modelAnswer),
        promptTokens: a.promptTokens,
        completionTokens: a.completionTokens,
      },
    }),
  );
  return { verdict: row, promptTokens: a.promptTokens, completionTokens: a.completionTokens };
}

/** The latest verdict per trajectory, as the canonical export carries it. */
export async function latestJudgeVerdicts(prisma: Db, trajectoryIds: string[]) {
  const rows = trajectoryIds.length
    ? await prisma.judgeVerdict.findMany({
        where: { trajectoryId: { in: trajectoryIds } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      })
    : [];
  const out = new Map<string, { outcome: Outcome; isConsistent: boolean; reason: string; model: string; prompt: string; at: string }>();
  for (const r of rows) {
    if (out.has(r.trajectoryId)) continue;
    const outcome = outcomeSchema.safeParse(r.outcome);
    if (!outcome.success) continue;
    out.set(r.trajectoryId, {
      outcome: outcome.data,
      isConsistent: r.isConsistent,
      reason: r.reason,
      model: r.model,
      prompt: r.prompt,
      at: r.createdAt.toISOString(),
    });
  }
  return out;
}

function tally(c: Confusion, human: Outcome, judge: Outcome) {
  c[human][judge] += 1;
}

function group(c: Confusion) {
  const pairs = c.success.success + c.success.failure + c.failure.success + c.failure.failure;
  return { pairs, agree: c.success.success + c.failure.failure, confusion: c, kappa: cohensKappa(c) };
}

/**
 * Judge against people over reviewed trajectories (REVIEWED_WHERE): the confusion matrix of human
 * outcome by judge outcome (latest verdict each), Cohen's kappa, the same per app, and the
 * disagreements to open. Trajectories with no verdict are counted as unjudged.
 */
export async function judgeAgreement({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<JudgeAgreement> {
  authorize(actor, "trajectory.review");
  const reviewed = await prisma.trajectory.findMany({
    where: REVIEWED_WHERE,
    select: { id: true, app: true, instruction: true, outcome: true },
    orderBy: { id: "asc" },
  });
  const verdicts = await latestJudgeVerdicts(
    prisma,
    reviewed.map((t) => t.id),
  );
  const overall = emptyConfusion();
  const byApp = new Map<string, Confusion>();
  const disagreements: JudgeAgreement["disagreements"] = [];
  let unjudged = 0;
  for (const t of reviewed) {
    const v = verdicts.get(t.id);
    const human = outcomeSchema.safeParse(t.outcome);
    if (!v || !human.success) {
      unjudged += 1;
      continue;
    }
    tally(overall, human.data, v.outcome);
    if (!byApp.has(t.app)) byApp.set(t.app, emptyConfusion());
    tally(byApp.get(t.app)!, human.data, v.outcome);
    if (human.data !== v.outcome) {
      disagreements.push({
        trajectoryId: t.id,
        app: t.app,
        instruction: t.instruction,
        human: human.data,
        judge: v.outcome,
        isConsistent: v.isConsistent,
        reason: v.reason,
        model: v.model,
        prompt: v.prompt,
      });
    }
  }
  return {
    overall: group(overall),
    byApp: [...byApp.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([app, c]) => ({ app, ...group(c) })),
    unjudged,
    disagreements: disagreements.slice(0, 500),
  };
}
