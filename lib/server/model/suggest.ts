import { framePair, QWEN_MAX_PIXELS, QWEN_MIN_PIXELS, toOriginalPoint, toResizedPoint, type Size } from "@/lib/domain/geometry";
import {
  actionSuggestionSchema,
  parseThoughtReply,
  thoughtSuggestionSchema,
  type FailedPrediction,
  type SuggestionKind,
  type SuggestionView,
} from "@/lib/domain/model";
import { parseModelOutput } from "@/lib/domain/model-output";
import type { Actor } from "@/lib/domain/permissions";
import { fenceData, mobileUseSystemPrompt, mobileUseUserText } from "@/lib/domain/prompt";
import { composeThought } from "@/lib/domain/thought";
import { formatMobileUseCall, mapPoints, screenProblems, type ToolCall } from "@/lib/domain/tool-call";
import { isEditableStatus } from "@/lib/domain/annotation";
import { LIMITS, type LimitName } from "@/lib/domain/limits";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError, type AppError } from "../errors";
import { chat, type ChatMessage } from "./chat";
import { modelCallError, redactedDetail } from "./call-errors";
import { fill, loadPrompt, PROMPTS } from "./prompt-files";
import { modelConfig, type ModelConfig } from "./settings";
import type { ModelCaller } from "./budget";
import { readScreenshot } from "../object-store";
import { stepFromRow, suggestionView, type SuggestionRow } from "../annotate";
import { env } from "../env";

/** The pixel budget the serving side resizes screenshots to (vLLM's Qwen2.5-VL processor default). */
export function modelMaxPixels(): number {
  return env().STUDIO_MODEL_MAX_PIXELS ?? QWEN_MAX_PIXELS;
}

/** A stored screenshot as a data: URL (the studio sends the original bytes; the server resizes). */
export async function screenshotDataUrl(sha256: string, mime: string): Promise<string> {
  const { bytes } = await readScreenshot(sha256, mime, "original");
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}

type StepContext = Awaited<ReturnType<typeof loadContext>>;

async function loadContext(prisma: Db, stepId: string) {
  const step = await prisma.step.findUnique({ where: { id: stepId }, include: { screenshot: true, trajectory: true } });
  if (!step) throw appError("not_found", "error.stepMissing", { id: stepId });
  const before = await prisma.step.findMany({
    where: { trajectoryId: step.trajectoryId, index: { lt: step.index } },
    orderBy: { index: "asc" },
    include: { screenshot: true },
  });
  return { step, view: stepFromRow(step), history: before.map(stepFromRow), trajectory: step.trajectory };
}

/** The request for "Suggest thought": instruction, history, screenshot, the step's (corrected) tool call. */
export async function thoughtMessages(ctx: StepContext): Promise<{ prompt: string; messages: ChatMessage[] }> {
  const p = await loadPrompt(PROMPTS.thought);
  // Every text from a file or a person is fenced as data (prompt suggest-thought.v2): an instruction hidden in a
  // task or an earlier step stays material for the thought, never an order to the model.
  const history = ctx.history.length
    ? fenceData(
        "history",
        ctx.history
          .map(
            (h) =>
              `Step ${h.index + 1}: ${h.clearAction || h.thought.nextAction || "(no description)"} | ${formatMobileUseCall(h.toolCall)}`,
          )
          .join("\n"),
      )
    : "(none: this is the first step)";
  const user = fill(p.user, {
    instruction: fenceData("task", ctx.trajectory.instruction),
    history,
    step: ctx.step.index + 1,
    step_count: ctx.trajectory.stepCount,
    clear_action: ctx.view.clearAction ? fenceData("clear-action", ctx.view.clearAction) : "(not written yet)",
    tool_call: fenceData("tool-call", formatMobileUseCall(ctx.view.toolCall)),
  });
  const image = await screenshotDataUrl(ctx.step.screenshot.sha256, ctx.step.screenshot.mime);
  return {
    prompt: p.name,
    messages: [
      { role: "system", content: p.system },
      {
        role: "user",
        content: [
          { type: "text", text: user },
          { type: "image_url", image_url: { url: image } },
        ],
      },
    ],
  };
}

/** The frames "Suggest action" works in: the screenshot's original size and the smart-resized one the model sees. */
function actionFrames(ctx: StepContext): { frame: Size; original: Size } {
  const original = { width: ctx.step.screenshot.width, height: ctx.step.screenshot.height };
  return { original, frame: framePair(original, modelMaxPixels(), QWEN_MIN_PIXELS).resized };
}

/** The request for "Suggest action": the cookbook's mobile_use prompt in the resized frame, history in that frame. */
async function actionMessages(ctx: StepContext): Promise<{ prompt: string; messages: ChatMessage[]; frame: Size; original: Size }> {
  const p = await loadPrompt(PROMPTS.action);
  const { original, frame } = actionFrames(ctx);
  const frames = { original, resized: frame };
  const history = ctx.history.map((h) =>
    mapPoints(h.toolCall, (pt) => toResizedPoint(pt, framePair(h.screenshot, modelMaxPixels(), QWEN_MIN_PIXELS))),
  );
  const system = fill(p.system, { mobile_use_system_prompt: mobileUseSystemPrompt(frames.resized) });
  const user = fill(p.user, { user_text: mobileUseUserText(ctx.trajectory.instruction, history) });
  const image = await screenshotDataUrl(ctx.step.screenshot.sha256, ctx.step.screenshot.mime);
  return {
    prompt: p.name,
    frame: frames.resized,
    original,
    messages: [
      { role: "system", content: system },
      {
        role: "user",
        content: [
          { type: "text", text: user },
          { type: "image_url", image_url: { url: image } },
        ],
      },
    ],
  };
}

type Asked = { prompt: string; model: string; output: unknown; rawText: string; promptTokens: number; completionTokens: number };

/** How a model call is made: for whom (budgets) and until when (the caller's signal). */
export type AskOptions = { caller: ModelCaller; signal?: AbortSignal };

/**
 * A model answer that cannot be used: 502 with the studio's reason, the tokens it cost (jobs count
 * them) and the start of the reply, redacted.
 */
export function unusable(config: ModelConfig, why: string, a: { text: string; promptTokens: number; completionTokens: number }): AppError {
  return modelCallError("unusable", { key: "model.error.unusable", vars: { why } }, config, {
    details: { reply: redactedDetail(a.text, config, 500), tokens: { prompt: a.promptTokens, completion: a.completionTokens } },
  });
}

/**
 * The model's values checked against the field limits of a save (lib/domain/limits.ts): an answer
 * longer than a person could save is refused whole (502, nothing recorded), rather than cut into a
 * thought that ends mid-word and would be taken for a real one.
 */
export function checkAnswerLimits(
  config: ModelConfig,
  fields: [field: string, value: string, limit: LimitName][],
  a: { text: string; promptTokens: number; completionTokens: number },
): void {
  for (const [field, value, limit] of fields) {
    if (value.length <= LIMITS[limit]) continue;
    throw modelCallError("unusable", { key: "model.error.tooLong", vars: { field, n: value.length, max: LIMITS[limit] } }, config, {
      details: { field, tokens: { prompt: a.promptTokens, completion: a.completionTokens } },
    });
  }
}

/**
 * Ask the model for a thought for this step; throws AppError (bad_gateway when the answer is
 * unusable or over the field limits, 429 past a budget). The screenshot is read only once the
 * request's turn has come.
 */
export async function askThought(config: ModelConfig, ctx: StepContext, opts: AskOptions): Promise<Asked> {
  const a = await chat(config, async () => (await thoughtMessages(ctx)).messages, { maxTokens: 512, ...opts });
  let parts: ReturnType<typeof parseThoughtReply>;
  try {
    parts = parseThoughtReply(a.text);
  } catch (e) {
    throw unusable(config, (e as Error).message, a);
  }
  const text = composeThought(parts);
  checkAnswerLimits(
    config,
    [
      ["state", parts.state, "thoughtPart"],
      ["next_action", parts.nextAction, "thoughtPart"],
      ["purpose", parts.purpose, "thoughtPart"],
      ["thought", text, "thought"],
    ],
    a,
  );
  const output = thoughtSuggestionSchema.parse({ ...parts, text });
  return {
    prompt: PROMPTS.thought,
    model: a.model,
    output,
    rawText: a.text,
    promptTokens: a.promptTokens,
    completionTokens: a.completionTokens,
  };
}

async function askAction(config: ModelConfig, ctx: StepContext, opts: AskOptions): Promise<Asked> {
  const { frame, original } = actionFrames(ctx);
  const a = await chat(config, async () => (await actionMessages(ctx)).messages, { maxTokens: 512, ...opts });
  const parsed = parseModelOutput(a.text);
  if (!parsed.toolCall)
    throw unusable(config, `no usable tool call: ${parsed.problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, a);
  checkAnswerLimits(
    config,
    [
      ["action", parsed.clearAction ?? "", "clearAction"],
      ["thought", parsed.thought ?? "", "thought"],
    ],
    a,
  );
  const frames = { original, resized: frame };
  const toolCall: ToolCall = mapPoints(parsed.toolCall, (pt) => toOriginalPoint(pt, frames));
  const off = screenProblems(toolCall, original);
  if (off.length) throw unusable(config, `the action is off the screen: ${off.map((p) => p.message).join("; ")}`, a);
  const output = actionSuggestionSchema.parse({ toolCall, clearAction: parsed.clearAction ?? "", thought: parsed.thought ?? "" });
  return {
    prompt: PROMPTS.action,
    model: a.model,
    output,
    rawText: a.text,
    promptTokens: a.promptTokens,
    completionTokens: a.completionTokens,
  };
}

/** An evaluation run's failing answer (origin eval) is named by its run; a run since deleted keeps its id. */
async function failedPredictionOf(prisma: Db | Tx, row: SuggestionRow): Promise<FailedPrediction | null> {
  if (row.origin !== "eval" || !row.jobId) return null;
  const run = await prisma.evalRun.findUnique({
    where: { id: row.jobId },
    select: { endpointName: true, setName: true, setVersion: true, rule: true },
  });
  return {
    runId: row.jobId,
    endpoint: run?.endpointName ?? row.model,
    set: run?.setName ?? row.jobId,
    version: run?.setVersion ?? 0,
    rule: run?.rule ?? "",
  };
}

/**
 * "Suggest thought" / "Suggest action" for one step: whoever may edit the step may ask. The answer
 * is recorded (table StepSuggestion, audit step.suggest) and returned; nothing in the step changes
 * until the person accepts it. A failing or slow endpoint is a 502/504/503 with a clear message, a
 * spent budget 429. `signal` is the person's request: when it closes, a waiting call is never sent
 * and one in flight is aborted.
 */
export async function suggestForStep(
  { actor, stepId, kind, signal }: { actor: Actor; stepId: string; kind: SuggestionKind; signal?: AbortSignal },
  prisma: Db = defaultDb(),
): Promise<SuggestionView> {
  const ctx = await loadContext(prisma, stepId);
  authorize(actor, "trajectory.annotate", ctx.trajectory);
  if (!isEditableStatus(ctx.trajectory.status))
    throw appError("forbidden", "error.suggestNotEditable", { status: ctx.trajectory.status.replace("_", " ") });
  const config = await modelConfig(prisma);
  const opts: AskOptions = { caller: { personId: actor.id }, signal };
  const asked = kind === "thought" ? await askThought(config, ctx, opts) : await askAction(config, ctx, opts);
  // The person went away while the model answered: nobody will read it, so nothing is recorded.
  signal?.throwIfAborted();
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.stepSuggestion.create({
      data: {
        stepId,
        trajectoryId: ctx.trajectory.id,
        kind,
        origin: "editor",
        prompt: asked.prompt,
        model: asked.model,
        outputJson: JSON.stringify(asked.output),
        rawText: asked.rawText.slice(0, LIMITS.modelAnswer),
        promptTokens: asked.promptTokens,
        completionTokens: asked.completionTokens,
        requestedById: actor.id,
      },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "step.suggest",
      entityType: "step",
      entityId: stepId,
      after: {
        suggestionId: created.id,
        kind,
        prompt: asked.prompt,
        model: asked.model,
        tokens: { prompt: asked.promptTokens, completion: asked.completionTokens },
      },
    });
    return created;
  });
  return suggestionView(row);
}

/**
 * The suggestion a job left waiting on this step (an evaluation run's answer sent to annotation): the latest one of
 * kind action that nobody has accepted, from anywhere but the editor (the editor's own are shown when asked). Whoever
 * may edit the step reads it; null when there is none or the work is not being edited.
 */
export async function waitingSuggestion(
  { actor, stepId }: { actor: Actor; stepId: string },
  prisma: Db = defaultDb(),
): Promise<SuggestionView | null> {
  const step = await prisma.step.findUnique({
    where: { id: stepId },
    select: { trajectory: { select: { assigneeId: true, status: true } } },
  });
  if (!step) throw appError("not_found", "error.stepMissing", { id: stepId });
  authorize(actor, "trajectory.annotate", step.trajectory);
  if (!isEditableStatus(step.trajectory.status)) return null;
  const row = await prisma.stepSuggestion.findFirst({
    where: { stepId, kind: "action", acceptedAt: null, origin: { not: "editor" } },
    orderBy: { createdAt: "desc" },
  });
  return row ? suggestionView(row, await failedPredictionOf(prisma, row)) : null;
}

/**
 * Accepting a suggestion: recorded before the values reach the step, so the save that carries them
 * is attributed (suggested-accepted, or suggested-edited once changed). The editor then applies the
 * values as an ordinary edit; undo takes them back.
 */
export async function acceptSuggestion(
  { actor, id: suggestionId }: { actor: Actor; id: string },
  prisma: Db = defaultDb(),
): Promise<SuggestionView> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.stepSuggestion.findUnique({ where: { id: suggestionId } });
    if (!row) throw appError("not_found", "error.suggestionMissing", { id: suggestionId });
    // A run's failing answer is evidence of what the model got wrong, not a value to take over.
    if (row.origin === "eval") throw appError("conflict", "error.acceptFailedPrediction", { id: suggestionId });
    const t = await tx.trajectory.findUniqueOrThrow({ where: { id: row.trajectoryId }, select: { assigneeId: true, status: true } });
    authorize(actor, "trajectory.annotate", t);
    if (!isEditableStatus(t.status)) throw appError("forbidden", "error.acceptNotEditable", { status: t.status.replace("_", " ") });
    const acceptedAt = new Date();
    const updated = await tx.stepSuggestion.update({ where: { id: suggestionId }, data: { acceptedAt, acceptedById: actor.id } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "step.suggest.accept",
      entityType: "step",
      entityId: row.stepId,
      after: { suggestionId, kind: row.kind, prompt: row.prompt, model: row.model },
    });
    return suggestionView(updated);
  });
}
