import {
  evalEndpointViewSchema,
  saveEvalEndpointInput,
  testEvalEndpointInput,
  type EvalEndpointView,
  type SaveEvalEndpointInput,
  type TestEvalEndpointInput,
} from "@/lib/domain/eval";
import type { ConnectionTest } from "@/lib/domain/model";
import { recordAudit, isSealed, seal, unseal, auditActor, authorizeCaller, isPerson, type Caller } from "../people";
import { db as defaultDb, type Db } from "../db";
import { testConnection, type ModelConfig } from "../model";

// Evaluation endpoints (index.ts): saved by name, each with its own key, sealed with the URL it was entered for.

/** The purpose bound into the encryption key of an endpoint's saved key (server-secret.ts). */
const KEY_PURPOSE = "eval-endpoint-key";
type EndpointRow = Awaited<ReturnType<Db["evalEndpoint"]["findFirstOrThrow"]>>;

function endpointView(r: EndpointRow): EvalEndpointView {
  return evalEndpointViewSchema.parse({
    id: r.id,
    name: r.name,
    baseUrl: r.baseUrl,
    model: r.model,
    hasKey: r.apiKey !== null,
    coords: r.coords,
    concurrency: r.concurrency,
    timeoutMs: r.timeoutMs,
  });
}

/** The key of an endpoint, only for the URL it was entered for (null: none, or it cannot be read). */
function endpointKey(r: EndpointRow): string | null {
  if (!r.apiKey || !isSealed(r.apiKey)) return null;
  const plain = unseal(r.apiKey, KEY_PURPOSE);
  if (plain === null) return null;
  const v = JSON.parse(plain) as { key?: unknown; url?: unknown };
  return typeof v.key === "string" && v.url === r.baseUrl ? v.key : null;
}

export function endpointConfig(r: EndpointRow): ModelConfig {
  return { baseUrl: r.baseUrl, model: r.model, apiKey: endpointKey(r), concurrency: r.concurrency, timeoutMs: r.timeoutMs };
}

/**
 * Save an evaluation endpoint by name (a new name adds one, an existing one is replaced). A key is stored
 * sealed with the URL it was entered for; a new URL without a new key clears it. The audit row never holds it.
 */
export async function saveEvalEndpoint(
  { caller, ...raw }: { caller: Caller } & SaveEvalEndpointInput,
  prisma: Db = defaultDb(),
): Promise<EvalEndpointView> {
  authorizeCaller(caller, "model.manage");
  const input = saveEvalEndpointInput.parse(raw);
  return prisma.$transaction(async (tx) => {
    const before = await tx.evalEndpoint.findUnique({ where: { name: input.name } });
    const apiKey =
      input.apiKey !== undefined && input.apiKey !== ""
        ? seal(JSON.stringify({ key: input.apiKey, url: input.baseUrl }), KEY_PURPOSE)
        : input.apiKey === "" || !before || before.baseUrl !== input.baseUrl
          ? null
          : before.apiKey;
    const data = {
      baseUrl: input.baseUrl,
      model: input.model,
      coords: input.coords,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      apiKey,
    };
    const row = await tx.evalEndpoint.upsert({ where: { name: input.name }, create: { name: input.name, ...data }, update: data });
    await recordAudit(tx, {
      actor: auditActor(caller),
      action: "eval.endpoint.save",
      entityType: "eval-endpoint",
      entityId: row.id,
      before: before ? { ...endpointView(before) } : null,
      after: { ...endpointView(row) },
    });
    return endpointView(row);
  });
}

export async function listEvalEndpoints({ caller }: { caller: Caller }, prisma: Db = defaultDb()): Promise<EvalEndpointView[]> {
  authorizeCaller(caller, "model.manage");
  return (await prisma.evalEndpoint.findMany({ orderBy: { name: "asc" } })).map(endpointView);
}

/**
 * "Test connection" on the endpoint form: one request to the URL and model as typed, through the server (so the
 * browser never needs to reach the endpoint), with the key typed or, when none is, the key saved under `name` for
 * this same URL. Answers what the model settings' test answers: whether it replied, in how long, or why not.
 */
export async function testEvalEndpoint(
  { caller, signal, ...raw }: { caller: Caller; signal?: AbortSignal } & TestEvalEndpointInput,
  prisma: Db = defaultDb(),
): Promise<ConnectionTest> {
  authorizeCaller(caller, "model.manage");
  const input = testEvalEndpointInput.parse(raw);
  const saved = input.name ? await prisma.evalEndpoint.findUnique({ where: { name: input.name } }) : null;
  const apiKey = input.apiKey ? input.apiKey : saved && saved.baseUrl === input.baseUrl ? endpointKey(saved) : null;
  const config: ModelConfig = { baseUrl: input.baseUrl, model: input.model, apiKey, concurrency: 1, timeoutMs: input.timeoutMs };
  return testConnection(config, isPerson(caller) ? { personId: caller.id } : { personId: caller.label }, signal);
}
