import {
  MODEL_DEFAULTS,
  modelSettingsViewSchema,
  saveModelSettingsInput,
  type ModelSettingsView,
  type SaveModelSettingsInput,
} from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { modelUrlProblem } from "@/lib/domain/redact";
import { recordAudit, isSealed, seal, unseal, auditActor, authorize } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
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

const envUrl = () => env().STUDIO_MODEL_URL || null;

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
  const model = pick(row?.model, env().STUDIO_MODEL_NAME, null);
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
  const envKey = env().STUDIO_MODEL_KEY && baseUrl.value !== null && baseUrl.value === envUrl() ? env().STUDIO_MODEL_KEY : null;
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
