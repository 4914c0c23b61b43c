import { readFile } from "node:fs/promises";
import path from "node:path";
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import {
  MODEL_DEFAULTS,
  modelSettingsViewSchema,
  saveModelSettingsInput,
  type ConnectionTest,
  type ModelSettingsView,
  type SaveModelSettingsInput,
} from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit } from "./audit";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";
import { auditActor, authorize } from "./session";

/**
 * The model endpoint: any OpenAI-compatible chat API (vLLM or SGLang serving Qwen2.5-VL, or a hosted
 * model). Settings saved by an admin (table ModelSetting) win; empty ones fall back to the
 * environment (STUDIO_MODEL_URL, STUDIO_MODEL_NAME, STUDIO_MODEL_KEY, STUDIO_MODEL_CONCURRENCY,
 * STUDIO_MODEL_TIMEOUT_MS). The key stays on the server: views carry only `hasKey`, audit rows only
 * say that it changed, and errors never include request headers.
 */

export type ModelConfig = { baseUrl: string; model: string; apiKey: string | null; concurrency: number; timeoutMs: number };

const SETTING_ID = "default";

function envInt(name: string): number | null {
  const v = process.env[name];
  if (!v) return null;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
}

async function resolve(prisma: Db): Promise<{ config: ModelConfig | null; view: ModelSettingsView }> {
  const row = await prisma.modelSetting.findUnique({ where: { id: SETTING_ID } });
  const pick = <T>(saved: T | null | undefined, env: T | null | undefined, fallback: T | null) =>
    saved !== null && saved !== undefined && saved !== ""
      ? { value: saved, source: "saved" as const }
      : env !== null && env !== undefined && env !== ""
        ? { value: env, source: "env" as const }
        : { value: fallback, source: fallback === null ? ("unset" as const) : ("default" as const) };
  const baseUrl = pick(row?.baseUrl, process.env.STUDIO_MODEL_URL, null);
  const model = pick(row?.model, process.env.STUDIO_MODEL_NAME, null);
  const apiKey = pick(row?.apiKey, process.env.STUDIO_MODEL_KEY, null);
  const concurrency = pick(row?.concurrency, envInt("STUDIO_MODEL_CONCURRENCY"), MODEL_DEFAULTS.concurrency);
  const timeoutMs = pick(row?.timeoutMs, envInt("STUDIO_MODEL_TIMEOUT_MS"), MODEL_DEFAULTS.timeoutMs);
  const isConfigured = !!baseUrl.value && !!model.value;
  const view = modelSettingsViewSchema.parse({
    baseUrl: baseUrl.value,
    model: model.value,
    hasKey: !!apiKey.value,
    concurrency: concurrency.value,
    timeoutMs: timeoutMs.value,
    sources: {
      baseUrl: baseUrl.source,
      model: model.source,
      apiKey: apiKey.source,
      concurrency: concurrency.source,
      timeoutMs: timeoutMs.source,
    },
    isConfigured,
  });
  const config = isConfigured
    ? { baseUrl: baseUrl.value!, model: model.value!, apiKey: apiKey.value, concurrency: concurrency.value!, timeoutMs: timeoutMs.value! }
    : null;
  return { config, view };
}

/** The endpoint as the studio will use it, without the key (admin page). */
export async function getModelSettings({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<ModelSettingsView> {
  authorize(actor, "model.manage");
  return (await resolve(prisma)).view;
}

/** The endpoint with its key, for the server's own calls; 503 when none is configured. */
export async function modelConfig(prisma: Db = defaultDb()): Promise<ModelConfig> {
  const { config } = await resolve(prisma);
  if (!config)
    throw new AppError(
      "unavailable",
      "No model endpoint is configured: an admin sets one on the Model page (or STUDIO_MODEL_URL and STUDIO_MODEL_NAME).",
    );
  return config;
}

/** Save the admin's settings (empty text falls back to the environment). The audit row names fields, never the key. */
export async function saveModelSettings(
  { actor, ...raw }: { actor: Actor } & SaveModelSettingsInput,
  prisma: Db = defaultDb(),
): Promise<ModelSettingsView> {
  authorize(actor, "model.manage");
  const input = saveModelSettingsInput.parse(raw);
  return prisma.$transaction(async (tx) => {
    const before = await tx.modelSetting.findUnique({ where: { id: SETTING_ID } });
    const data = {
      baseUrl: input.baseUrl || null,
      model: input.model || null,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      ...(input.apiKey !== undefined ? { apiKey: input.apiKey || null } : {}),
      updatedById: actor.id,
    };
    await tx.modelSetting.upsert({ where: { id: SETTING_ID }, create: { id: SETTING_ID, ...data }, update: data });
    const shown = (r: { baseUrl: string | null; model: string | null; concurrency: number | null; timeoutMs: number | null } | null) =>
      r ? { baseUrl: r.baseUrl, model: r.model, concurrency: r.concurrency, timeoutMs: r.timeoutMs } : null;
    const keyChange = input.apiKey === undefined ? "kept" : input.apiKey === "" ? "cleared" : "replaced";
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "model.settings",
      entityType: "model",
      entityId: SETTING_ID,
      before: shown(before),
      after: { ...shown({ ...data }), apiKey: keyChange },
    });
    return (await resolve(tx as unknown as Db)).view;
  });
}

// ── Calling the model ────────────────────────────────────────────────────────────────────────────

export type ChatPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ChatAnswer = { text: string; promptTokens: number; completionTokens: number; model: string };

/** At most `concurrency` requests in flight per endpoint in this process; the rest wait their turn. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(public limit: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
const globalForModel = globalThis as unknown as { studioModelGates?: Map<string, Gate> };
const gates = (globalForModel.studioModelGates ??= new Map());

function gateFor(config: ModelConfig): Gate {
  const key = `${config.baseUrl}|${config.model}`;
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = new Gate(config.concurrency)));
  gate.limit = config.concurrency;
  return gate;
}

/** An error from the endpoint in words a person can act on; never includes the key or headers. */
function modelError(e: unknown, config: ModelConfig): AppError {
  if (e instanceof APIConnectionTimeoutError || (e instanceof APIUserAbortError && /timed out/i.test(e.message))) {
    return new AppError("gateway_timeout", `The model endpoint did not answer within ${Math.round(config.timeoutMs / 1000)} s.`, {
      reason: "timeout",
    });
  }
  if (e instanceof APIError && e.status !== undefined) {
    const detail =
      typeof e.error === "object" && e.error && "message" in e.error ? String((e.error as { message: unknown }).message) : e.message;
    return new AppError("bad_gateway", `The model endpoint answered ${e.status}: ${detail.slice(0, 300)}`, {
      reason: "status",
      status: e.status,
    });
  }
  if (e instanceof APIError)
    return new AppError("bad_gateway", `The model endpoint could not be reached at ${config.baseUrl} (${e.message.slice(0, 200)}).`, {
      reason: "connection",
    });
  if (e instanceof AppError) return e;
  return new AppError("bad_gateway", `The model call failed: ${(e as Error).message?.slice(0, 300) ?? "unknown error"}`, {
    reason: "other",
  });
}

/**
 * One chat completion (non-streaming) through the official client, with the configured timeout and
 * no retries (a person is waiting; a job retries on its own terms). Throws AppError bad_gateway or
 * gateway_timeout; an empty answer is bad_gateway too.
 */
export async function chat(
  config: ModelConfig,
  messages: ChatMessage[],
  opts: { maxTokens?: number; signal?: AbortSignal } = {},
): Promise<ChatAnswer> {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey ?? "EMPTY",
    timeout: config.timeoutMs,
    maxRetries: 0,
    logLevel: "off",
  });
  return gateFor(config).run(async () => {
    try {
      const res = await client.chat.completions.create(
        { model: config.model, messages, temperature: 0, max_tokens: opts.maxTokens ?? 512 },
        { signal: opts.signal },
      );
      const text = res.choices[0]?.message?.content ?? "";
      if (!text.trim()) throw new AppError("bad_gateway", "The model endpoint answered with an empty message.", { reason: "empty" });
      return {
        text,
        promptTokens: res.usage?.prompt_tokens ?? 0,
        completionTokens: res.usage?.completion_tokens ?? 0,
        model: res.model || config.model,
      };
    } catch (e) {
      throw modelError(e, config);
    }
  });
}

/** "Test connection": one real request; what came back (or why not) and how long it took. */
export async function testModelConnection({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<ConnectionTest> {
  authorize(actor, "model.manage");
  const started = Date.now();
  let config: ModelConfig;
  try {
    config = await modelConfig(prisma);
  } catch (e) {
    return { ok: false, model: null, reply: null, error: (e as Error).message, ms: 0, usage: null };
  }
  try {
    const a = await chat(config, [{ role: "user", content: "Reply with the single word: pong" }], { maxTokens: 16 });
    return {
      ok: true,
      model: a.model,
      reply: a.text.slice(0, 2_000),
      error: null,
      ms: Date.now() - started,
      usage: { promptTokens: a.promptTokens, completionTokens: a.completionTokens },
    };
  } catch (e) {
    return { ok: false, model: config.model, reply: null, error: (e as Error).message, ms: Date.now() - started, usage: null };
  }
}

// ── Prompt files ─────────────────────────────────────────────────────────────────────────────────

/** The prompt versions in use; a new version is a new file, so provenance names stay meaningful. */
export const PROMPTS = { thought: "suggest-thought.v1", action: "suggest-action.v1", judge: "judge.v1" } as const;

export type PromptFile = { name: string; system: string; user: string };

/** Read lib/server/prompts/<name>.md: the header comment dropped, split at `--- system ---` / `--- user ---`. */
export async function loadPrompt(name: string): Promise<PromptFile> {
  const file = path.join(process.cwd(), "lib", "server", "prompts", `${name}.md`);
  const text = (await readFile(file, "utf8")).replace(/<!--[\s\S]*?-->\s*/, "");
  const m = text.match(/--- system ---\n([\s\S]*?)\n--- user ---\n([\s\S]*)$/);
  if (!m) throw new Error(`prompt ${name}: expected a "--- system ---" and a "--- user ---" section`);
  return { name, system: m[1]!.trim(), user: m[2]!.trim() };
}

/** Fill {{name}} placeholders; an unknown placeholder is a mistake in the prompt file. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => {
    if (!(k in vars)) throw new Error(`prompt placeholder {{${k}}} has no value`);
    return String(vars[k]);
  });
}
