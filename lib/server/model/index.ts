import type { ConnectionTest } from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { db as defaultDb, type Db } from "../db";
import { AppError } from "../errors";
import { authorize } from "../people";
import { chat } from "./chat";
import { reasonOf } from "./call-errors";
import { modelConfig, type ModelConfig } from "./settings";
import type { ModelCaller } from "./budget";

// The model endpoint's use cases. Its parts: settings.ts (where the endpoint is, its key), chat.ts (one
// call), call-errors.ts (what a failed call says), prompt-files.ts (the prompts). None of them imports this file.
export { getModelSettings, modelConfig, rekeyModelSettings, saveModelSettings, type ModelConfig } from "./settings";
export { chat, MAX_ANSWER_BYTES, type ChatAnswer, type ChatMessage, type ChatPart } from "./chat";
export { modelCallError, reasonOf, redactedDetail } from "./call-errors";
export { fill, loadPrompt, PROMPTS, type PromptFile } from "./prompt-files";
export { JOB_HEARTBEAT_MS, JOB_STALE_MS } from "./job-runner";
export { commandModelJob, getModelJob, listModelJobs, MODEL_JOBS, startModelJob } from "./jobs";
export { judgeAgreement, latestJudgeVerdicts } from "./judge";
export { type PoolItem, workThrough } from "./pool";
export { acceptSuggestion, modelMaxPixels, screenshotDataUrl, suggestForStep, waitingSuggestion } from "./suggest";

/**
 * "Test connection": one real request to the saved endpoint; its HTTP status, how long it took (ms)
 * and, on failure, the classified reason. On success the model's reply (at most 200 characters);
 * never anything else the endpoint wrote.
 */
export async function testModelConnection(
  { actor, signal }: { actor: Actor; signal?: AbortSignal },
  prisma: Db = defaultDb(),
): Promise<ConnectionTest> {
  authorize(actor, "model.manage");
  let config: ModelConfig;
  try {
    config = await modelConfig(prisma);
  } catch (e) {
    return { ok: false, model: null, reply: null, status: null, reason: reasonOf(e) ?? "not_configured", ms: 0, usage: null };
  }
  return testConnection(config, { personId: actor.id }, signal);
}

/**
 * One real request ("Reply with the single word: pong") to the endpoint `config` names, for whoever `caller` is
 * (the call budget counts it): what testModelConnection answers, for any endpoint (an evaluation endpoint's form too).
 */
export async function testConnection(config: ModelConfig, caller: ModelCaller, signal?: AbortSignal): Promise<ConnectionTest> {
  const started = Date.now();
  try {
    const a = await chat(config, async () => [{ role: "user", content: "Reply with the single word: pong" }], {
      caller,
      maxTokens: 16,
      signal,
    });
    return {
      ok: true,
      model: a.model,
      reply: a.text.slice(0, 200),
      status: 200,
      reason: null,
      ms: Date.now() - started,
      usage: { promptTokens: a.promptTokens, completionTokens: a.completionTokens },
    };
  } catch (e) {
    if (reasonOf(e) === "budget") throw e;
    const status = (e instanceof AppError && (e.details as { status?: number } | undefined)?.status) || null;
    return {
      ok: false,
      model: config.model,
      reply: null,
      status,
      reason: reasonOf(e) ?? "bad_answer",
      ms: Date.now() - started,
      usage: null,
    };
  }
}
