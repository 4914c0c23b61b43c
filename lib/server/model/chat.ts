import type OpenAI from "openai";
import type { ModelCallReason } from "@/lib/domain/model";
import type { MessageKey } from "@/lib/i18n";
import { AppError } from "../errors";
import { admit, gateFor, type ModelCaller } from "./budget";
import { modelCallError, networkReason, ref, upstreamMessage } from "./call-errors";
import type { ModelConfig } from "./settings";

export type ChatPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ChatAnswer = { text: string; promptTokens: number; completionTokens: number; model: string };

/** The most bytes of an answer the studio reads: a chat completion within the field limits is far smaller. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

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
