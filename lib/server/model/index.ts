import { readFile } from "node:fs/promises";
import path from "node:path";
import type OpenAI from "openai";
import {
  MODEL_DEFAULTS,
  modelSettingsViewSchema,
  saveModelSettingsInput,
  type ConnectionTest,
  type ModelCallReason,
  type ModelSettingsView,
  type SaveModelSettingsInput,
} from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { modelUrlProblem, redactSecrets } from "@/lib/domain/redact";
import { localize, type MessageKey, type MessageRef } from "@/lib/i18n";
import { recordAudit } from "../people/audit";
import { db as defaultDb, type Db } from "../db";
import { AppError, appError, type ErrorCode } from "../http/errors";
import { admit, gateFor, type ModelCaller } from "./budget";
import { isSealed, seal, unseal } from "../people/server-secret";
import { auditActor, authorize } from "../fast/session";
import { env } from "../env";

/**
 * The model endpoint: any OpenAI-compatible chat API (vLLM or SGLang serving Qwen2.5-VL, or a hosted
 * model). Settings saved by an admin (table ModelSetting) win; empty ones fall back to the
 * environment (STUDIO_MODEL_URL, STUDIO_MODEL_NAME, STUDIO_MODEL_KEY, STUDIO_MODEL_CONCURRENCY,
 * STUDIO_MODEL_TIMEOUT_MS).
 *
 * The key stays home: it is sent only to the URL it was entered for (a saved key is stored with its
 * URL; STUDIO_MODEL_KEY goes only to STUDIO_MODEL_URL), saved keys are encrypted at rest under the
 * server secret (server-secret.ts), views carry only `hasKey`, audit rows only say how it changed,
 * and every error about a call is the studio's words plus a redacted upstream detail.
 */

export type ModelConfig = { baseUrl: string; model: string; apiKey: string | null; concurrency: number; timeoutMs: number };

const SETTING_ID = "default";
/** The purpose bound into the encryption key of a saved model key (server-secret.ts). */
const KEY_PURPOSE = "model-api-key";

const envUrl = () => process.env.STUDIO_MODEL_URL?.trim() || null;

/** A saved key as stored: the key and the base URL it was entered for, sealed together. */
type StoredKey = { key: string; url: string | null };

/**
 * What the stored text holds: the key with its URL, "unreadable" (sealed under another secret), or
 * a plaintext key from before encryption (`legacy`, bound to the URL it was being sent to).
 */
function openStoredKey(stored: string, legacyUrl: string | null): { key: StoredKey | null; isLegacy: boolean } {
  if (!isSealed(stored)) return { key: { key: stored, url: legacyUrl }, isLegacy: true };
  const plain = unseal(stored, KEY_PURPOSE);
  if (plain === null) return { key: null, isLegacy: false };
  try {
    const v = JSON.parse(plain) as StoredKey;
    return typeof v.key === "string"
      ? { key: { key: v.key, url: typeof v.url === "string" ? v.url : null }, isLegacy: false }
      : { key: null, isLegacy: false };
  } catch {
    return { key: null, isLegacy: false };
  }
}

const sealKey = (k: StoredKey) => seal(JSON.stringify(k), KEY_PURPOSE);

async function resolve(prisma: Db): Promise<{ config: ModelConfig | null; view: ModelSettingsView; urlProblem: string | null }> {
  const row = await prisma.modelSetting.findUnique({ where: { id: SETTING_ID } });
  const pick = <T>(saved: T | null | undefined, env: T | null | undefined, fallback: T | null) =>
    saved !== null && saved !== undefined && saved !== ""
      ? { value: saved, source: "saved" as const }
      : env !== null && env !== undefined && env !== ""
        ? { value: env, source: "env" as const }
        : { value: fallback, source: fallback === null ? ("unset" as const) : ("default" as const) };
  const baseUrl = pick(row?.baseUrl, envUrl(), null);
  const model = pick(row?.model, process.env.STUDIO_MODEL_NAME, null);
  const concurrency = pick(row?.concurrency, env().STUDIO_MODEL_CONCURRENCY ?? null, MODEL_DEFAULTS.concurrency);
  const timeoutMs = pick(row?.timeoutMs, env().STUDIO_MODEL_TIMEOUT_MS ?? null, MODEL_DEFAULTS.timeoutMs);

  let saved: StoredKey | null = null;
  let keyUnreadable = false;
  if (row?.apiKey) {
    const opened = openStoredKey(row.apiKey, baseUrl.value);
    if (opened.isLegacy && opened.key) {
      // A key saved in plain text before encryption: read once, stored encrypted from now on (only
      // if nobody changed the row meanwhile), bound to the URL it was being sent to.
      await prisma.modelSetting.updateMany({ where: { id: SETTING_ID, apiKey: row.apiKey }, data: { apiKey: sealKey(opened.key) } });
    }
    saved = opened.key;
    keyUnreadable = opened.key === null;
  }
  // A key goes only where it was entered for: the saved one to its URL, the environment's to STUDIO_MODEL_URL.
  const savedKey = saved && saved.url === baseUrl.value ? saved.key : null;
  const envKey = process.env.STUDIO_MODEL_KEY && baseUrl.value !== null && baseUrl.value === envUrl() ? process.env.STUDIO_MODEL_KEY : null;
  const apiKey = keyUnreadable
    ? { value: null, source: "saved" as const }
    : savedKey
      ? { value: savedKey, source: "saved" as const }
      : envKey
        ? { value: envKey, source: "env" as const }
        : { value: null, source: "unset" as const };
  const isConfigured = !!baseUrl.value && !!model.value;
  // A URL saved before URLs were checked, or given in STUDIO_MODEL_URL, is held to the same rule as a save.
  const urlProblem = baseUrl.value ? modelUrlProblem(baseUrl.value) : null;
  const view = modelSettingsViewSchema.parse({
    baseUrl: baseUrl.value,
    model: model.value,
    hasKey: !!apiKey.value || keyUnreadable,
    keyUnreadable,
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
  const config =
    isConfigured && !keyUnreadable && !urlProblem
      ? { baseUrl: baseUrl.value!, model: model.value!, apiKey: apiKey.value, concurrency: concurrency.value!, timeoutMs: timeoutMs.value! }
      : null;
  return { config, view, urlProblem };
}

/** The endpoint as the studio will use it, without the key (admin page). */
export async function getModelSettings({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<ModelSettingsView> {
  authorize(actor, "model.manage");
  return (await resolve(prisma)).view;
}

/** The endpoint with its key, for the server's own calls; 503 when none is configured or the saved key cannot be read. */
export async function modelConfig(prisma: Db = defaultDb()): Promise<ModelConfig> {
  const { config, view, urlProblem } = await resolve(prisma);
  if (urlProblem && view.isConfigured)
    throw appError(
      "unavailable",
      "model.error.badUrl",
      { source: view.sources.baseUrl === "env" ? "STUDIO_MODEL_URL" : "baseUrl", problem: urlProblem },
      { reason: "not_configured" },
    );
  if (!config && view.keyUnreadable) throw appError("unavailable", "model.error.keyUnreadable", undefined, { reason: "not_configured" });
  if (!config) throw appError("unavailable", "model.error.notConfigured", undefined, { reason: "not_configured" });
  return config;
}

/**
 * Save the admin's settings (empty text falls back to the environment). A key entered here is
 * stored encrypted with the base URL the settings now point at; a change of that URL without a new
 * key clears the saved key, so it never goes to a host it was not entered for. The audit row names
 * fields, never the key (`apiKey`: kept, replaced, cleared, or cleared-url-changed).
 */
export async function saveModelSettings(
  { actor, ...raw }: { actor: Actor } & SaveModelSettingsInput,
  prisma: Db = defaultDb(),
): Promise<ModelSettingsView> {
  authorize(actor, "model.manage");
  const input = saveModelSettingsInput.parse(raw);
  return prisma.$transaction(async (tx) => {
    const before = await tx.modelSetting.findUnique({ where: { id: SETTING_ID } });
    const urlBefore = before?.baseUrl || envUrl();
    const urlAfter = input.baseUrl || envUrl();
    let apiKey: string | null;
    let keyChange: "kept" | "replaced" | "cleared" | "cleared-url-changed";
    if (input.apiKey !== undefined && input.apiKey !== "") {
      apiKey = sealKey({ key: input.apiKey, url: urlAfter });
      keyChange = "replaced";
    } else if (input.apiKey === "" || !before?.apiKey) {
      apiKey = null;
      keyChange = before?.apiKey ? "cleared" : "kept";
    } else {
      const opened = openStoredKey(before.apiKey, urlBefore);
      const boundTo = opened.key ? opened.key.url : urlBefore;
      if (boundTo !== urlAfter) {
        apiKey = null;
        keyChange = "cleared-url-changed";
      } else {
        apiKey = opened.isLegacy && opened.key ? sealKey(opened.key) : before.apiKey;
        keyChange = "kept";
      }
    }
    const data = {
      baseUrl: input.baseUrl || null,
      model: input.model || null,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      apiKey,
      updatedById: actor.id,
    };
    await tx.modelSetting.upsert({ where: { id: SETTING_ID }, create: { id: SETTING_ID, ...data }, update: data });
    const shown = (r: { baseUrl: string | null; model: string | null; concurrency: number | null; timeoutMs: number | null } | null) =>
      r ? { baseUrl: r.baseUrl, model: r.model, concurrency: r.concurrency, timeoutMs: r.timeoutMs } : null;
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

/**
 * Encrypt every saved key again under the current server secret (the `rekey` command of the CLI
 * after BETTER_AUTH_SECRET changes): `oldSecret` opens what is stored. Returns what happened; a
 * key that opens with neither secret is left as it is (an admin enters it again).
 */
export async function rekeyModelSettings(
  oldSecret: string,
  prisma: Db = defaultDb(),
): Promise<"rekeyed" | "current" | "no-key" | "unreadable"> {
  const row = await prisma.modelSetting.findUnique({ where: { id: SETTING_ID } });
  if (!row?.apiKey) return "no-key";
  if (!isSealed(row.apiKey) || unseal(row.apiKey, KEY_PURPOSE) !== null) return "current";
  const plain = unseal(row.apiKey, KEY_PURPOSE, oldSecret);
  if (plain === null) return "unreadable";
  await prisma.modelSetting.updateMany({ where: { id: SETTING_ID, apiKey: row.apiKey }, data: { apiKey: seal(plain, KEY_PURPOSE) } });
  return "rekeyed";
}

// ── Calling the model ────────────────────────────────────────────────────────────────────────────

export type ChatPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ChatAnswer = { text: string; promptTokens: number; completionTokens: number; model: string };

/** The most bytes of an answer the studio reads: a chat completion within the field limits is far smaller. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** The most characters of an endpoint's own error message quoted (redacted) in the studio's. */
const DETAIL_CHARS = 300;

const CODE_OF: Record<ModelCallReason, ErrorCode> = {
  auth: "bad_gateway",
  not_found: "bad_gateway",
  status: "bad_gateway",
  timeout: "gateway_timeout",
  refused: "bad_gateway",
  unreachable: "bad_gateway",
  tls: "bad_gateway",
  bad_answer: "bad_gateway",
  unusable: "bad_gateway",
  budget: "too_many_requests",
  cancelled: "bad_gateway",
  not_configured: "unavailable",
};

/** Everything a message about this endpoint must not show: the keys in play, its URL and host. */
function secretsOf(config: ModelConfig): string[] {
  const out = [config.apiKey ?? "", process.env.STUDIO_MODEL_KEY ?? "", config.baseUrl];
  if (URL.canParse(config.baseUrl)) out.push(new URL(config.baseUrl).host);
  return out.filter((s) => s.length > 0);
}

/** Upstream text as it may be shown: secrets removed, cut to `max` characters, on one line. */
export function redactedDetail(text: string, config: ModelConfig, max = DETAIL_CHARS): string {
  const clean = redactSecrets(text.replace(/\s+/g, " ").trim(), secretsOf(config));
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/**
 * An error about a model call: the studio's words (a catalogue key) and, when the endpoint said
 * something, its words after them, redacted, in quotes, never inside the studio's sentence. `details`
 * (sent to the caller as `issues`) carries the classified reason and the HTTP status.
 */
export function modelCallError(
  reason: ModelCallReason,
  words: MessageRef,
  config: ModelConfig,
  extra: { status?: number; detail?: string } = {},
): AppError {
  const detail = extra.detail ? redactedDetail(extra.detail, config) : "";
  const details = { reason, ...(extra.status !== undefined ? { status: extra.status } : {}) };
  if (!detail) return appError(CODE_OF[reason], words.key, words.vars, details);
  // The log keeps both in one line; the answer carries the endpoint's words as its own `detail`.
  return new AppError(CODE_OF[reason], `${localize(words, "en")} The endpoint said: “${detail}”`, details, words, detail);
}

const ref = (key: MessageKey, vars?: MessageRef["vars"]): MessageRef => (vars ? { key, vars } : { key });

/** The classified reason of a failed model call (AppError details), or null for any other error. */
export function reasonOf(e: unknown): ModelCallReason | null {
  if (!(e instanceof AppError)) return null;
  const r = (e.details as { reason?: unknown } | undefined)?.reason;
  return typeof r === "string" ? (r as ModelCallReason) : null;
}

/** Why a connection failed, from the error fetch threw (undici puts the system error in `cause`). */
function networkReason(e: unknown): ModelCallReason {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  // Node tries each address of a host in turn and reports them together (AggregateError).
  const code = cause?.code ?? cause?.errors?.[0]?.code ?? "";
  const text = `${code} ${cause?.message ?? ""}`;
  if (code === "ECONNREFUSED") return "refused";
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO|certificate|handshake/i.test(text)) return "tls";
  return "unreachable";
}

/** The endpoint's own error message, only from a JSON error body (`{error: {message}}`, `{message}`, `{detail}`); never a page. */
function upstreamMessage(body: string): string {
  try {
    const v = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = v.error;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof e === "string") return e;
    if (typeof v.message === "string") return v.message;
    if (typeof v.detail === "string") return v.detail;
  } catch {
    // not JSON: an HTML page or anything else is never quoted
  }
  return "";
}

/** The body as text, no more than `max` bytes; null when it is longer. Aborting `signal` ends the read at once. */
async function readCapped(res: Response, max: number, signal: AbortSignal): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > max) return null;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString("utf8");
}

class Deadline extends Error {}

/**
 * One chat completion (non-streaming) for `caller`, within the budgets (model-budget.ts: 429 past
 * them, nothing sent) and the endpoint's concurrency gate. `build` makes the messages only once a
 * slot is free, so a waiting request holds no screenshot. One deadline (the configured timeout, in
 * ms) covers the whole exchange, headers and body; `signal` (the caller went away, a job was
 * cancelled) takes a waiting request out of the queue and aborts one in flight. No retries, no
 * redirects followed (a redirect is a bad answer: the key never travels to another host). Throws
 * AppError: 429 budget, 502 bad_gateway, 504 gateway_timeout, with the reason in `details`.
 */
export async function chat(
  config: ModelConfig,
  build: () => Promise<ChatMessage[]>,
  opts: { caller: ModelCaller; maxTokens?: number; signal?: AbortSignal },
): Promise<ChatAnswer> {
  const endpoint = `${config.baseUrl}|${config.model}`;
  const gate = gateFor(endpoint, config.concurrency);
  const giveBack = admit(endpoint, gate, opts.caller);
  const cancelled = () => modelCallError("cancelled", ref("model.error.cancelled"), config);
  try {
    if (opts.signal?.aborted) throw cancelled();
    return await gate.add(
      async () => {
        if (opts.signal?.aborted) throw cancelled();
        const messages = await build();
        return send(config, messages, opts.maxTokens ?? 512, opts.signal);
      },
      { signal: opts.signal },
    );
  } catch (e) {
    // Taken out of the queue before its turn: the queue rejects with the signal's reason.
    if (!(e instanceof AppError) && opts.signal?.aborted) throw cancelled();
    throw e;
  } finally {
    giveBack();
  }
}

async function send(config: ModelConfig, messages: ChatMessage[], maxTokens: number, signal?: AbortSignal): Promise<ChatAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Deadline()), config.timeoutMs);
  const onCaller = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onCaller, { once: true });
  // The caller may have gone while the messages were built: then nothing is sent.
  if (signal?.aborted) controller.abort(signal.reason);
  const fail = (e: unknown): AppError => {
    if (e instanceof AppError) return e;
    if (controller.signal.reason instanceof Deadline)
      return modelCallError("timeout", ref("model.error.timeout", { s: Math.round(config.timeoutMs / 1000) }), config);
    if (controller.signal.aborted) return modelCallError("cancelled", ref("model.error.cancelled"), config);
    const reason = networkReason(e);
    return modelCallError(reason, ref(`model.error.${reason}` as MessageKey), config);
  };
  try {
    const res = await fetch(`${config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        // vLLM's convention for an open endpoint: a key must be sent, "EMPTY" says there is none.
        authorization: `Bearer ${config.apiKey ?? "EMPTY"}`,
      },
      body: JSON.stringify({ model: config.model, messages, temperature: 0, max_tokens: maxTokens }),
      redirect: "manual",
      signal: controller.signal,
    });
    if (res.status >= 300 && res.status < 400) {
      void res.body?.cancel().catch(() => undefined);
      throw modelCallError("bad_answer", ref("model.error.redirect", { status: res.status }), config, { status: res.status });
    }
    const body = await readCapped(res, MAX_ANSWER_BYTES, controller.signal);
    if (body === null)
      throw modelCallError("bad_answer", ref("model.error.tooLarge", { mb: MAX_ANSWER_BYTES / 1024 / 1024 }), config, {
        status: res.status,
      });
    if (!res.ok) {
      const reason: ModelCallReason = res.status === 401 || res.status === 403 ? "auth" : res.status === 404 ? "not_found" : "status";
      throw modelCallError(reason, ref(`model.error.${reason}` as MessageKey, { status: res.status }), config, {
        status: res.status,
        detail: upstreamMessage(body),
      });
    }
    let parsed: {
      choices?: { message?: { content?: unknown } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number };
      model?: unknown;
    };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      throw modelCallError("bad_answer", ref("model.error.notCompletion"), config, { status: res.status });
    }
    const text = parsed?.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw modelCallError("bad_answer", ref("model.error.notCompletion"), config, { status: res.status });
    if (!text.trim()) throw modelCallError("bad_answer", ref("model.error.empty"), config, { status: res.status });
    return {
      text,
      promptTokens: Number(parsed.usage?.prompt_tokens) || 0,
      completionTokens: Number(parsed.usage?.completion_tokens) || 0,
      model: typeof parsed.model === "string" && parsed.model ? parsed.model.slice(0, 200) : config.model,
    };
  } catch (e) {
    throw fail(e);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onCaller);
  }
}

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
  const started = Date.now();
  let config: ModelConfig;
  try {
    config = await modelConfig(prisma);
  } catch (e) {
    return { ok: false, model: null, reply: null, status: null, reason: reasonOf(e) ?? "not_configured", ms: 0, usage: null };
  }
  try {
    const a = await chat(config, async () => [{ role: "user", content: "Reply with the single word: pong" }], {
      caller: { personId: actor.id },
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

// ── Prompt files ─────────────────────────────────────────────────────────────────────────────────

/** The prompt versions in use; a new version is a new file, so provenance names stay meaningful. */
export const PROMPTS = { thought: "suggest-thought.v2", action: "suggest-action.v1", judge: "judge.v2" } as const;

export type PromptFile = { name: string; system: string; user: string };

/** Read lib/server/model/prompts/<name>.md: the header comment dropped, split at `--- system ---` / `--- user ---`. */
export async function loadPrompt(name: string): Promise<PromptFile> {
  const file = path.join(process.cwd(), "lib", "server", "model", "prompts", `${name}.md`);
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
