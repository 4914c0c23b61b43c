import type { ModelCallReason } from "@/lib/domain/model";
import { redactSecrets } from "@/lib/domain/redact";
import { localize, type MessageKey, type MessageRef } from "@/lib/i18n";
import { AppError, appError, type ErrorCode } from "../errors";
import type { ModelConfig } from "./settings";
import { env } from "../env";

// The errors of a model call: the studio's words (catalogue keys), the endpoint's own words redacted
// after them, and the classified reason in `details`.

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
  const out = [config.apiKey ?? "", env().STUDIO_MODEL_KEY ?? "", config.baseUrl];
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
 * (sent to the caller as `issues`) carries the classified reason, the HTTP status and any `extra.details`
 * (what an unusable answer cost, the start of its reply).
 */
export function modelCallError(
  reason: ModelCallReason,
  words: MessageRef,
  config: ModelConfig,
  extra: { status?: number; detail?: string; details?: Record<string, unknown> } = {},
): AppError {
  const detail = extra.detail ? redactedDetail(extra.detail, config) : "";
  const details = { reason, ...(extra.status !== undefined ? { status: extra.status } : {}), ...extra.details };
  if (!detail) return appError(CODE_OF[reason], words.key, words.vars, details);
  // The log keeps both in one line; the answer carries the endpoint's words as its own `detail`.
  return new AppError(CODE_OF[reason], `${localize(words, "en")} The endpoint said: “${detail}”`, details, words, detail);
}

export const ref = (key: MessageKey, vars?: MessageRef["vars"]): MessageRef => (vars ? { key, vars } : { key });

/** The classified reason of a failed model call (AppError details), or null for any other error. */
export function reasonOf(e: unknown): ModelCallReason | null {
  if (!(e instanceof AppError)) return null;
  const r = (e.details as { reason?: unknown } | undefined)?.reason;
  return typeof r === "string" ? (r as ModelCallReason) : null;
}

/** Why a connection failed, from the error fetch threw (undici puts the system error in `cause`). */
export function networkReason(e: unknown): ModelCallReason {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  // Node tries each address of a host in turn and reports them together (AggregateError).
  const code = cause?.code ?? cause?.errors?.[0]?.code ?? "";
  const text = `${code} ${cause?.message ?? ""}`;
  if (code === "ECONNREFUSED") return "refused";
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO|certificate|handshake/i.test(text)) return "tls";
  return "unreachable";
}

/** The endpoint's own error message, only from a JSON error body (`{error: {message}}`, `{message}`, `{detail}`); never a page. */
export function upstreamMessage(body: string): string {
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
