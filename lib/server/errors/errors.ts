import { localize, type Locale, type MessageKey, type MessageRef } from "@/lib/i18n";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "payload_too_large"
  | "too_many_requests"
  | "bad_gateway"
  | "unavailable"
  | "gateway_timeout"
  | "insufficient_storage"
  | "internal";

export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  payload_too_large: 413,
  /** a budget is spent (model calls per person or per endpoint) */
  too_many_requests: 429,
  internal: 500,
  /** the model endpoint answered with an error, or something unusable */
  bad_gateway: 502,
  /** no model endpoint is configured */
  unavailable: 503,
  /** the model endpoint did not answer in time */
  gateway_timeout: 504,
  /** the disk (the data folder's, or the database's) is full */
  insufficient_storage: 507,
};

/**
 * The one error type use cases throw; `details` is safe to show to the caller. An error built
 * with `appError` carries its catalogue message, and the answer is in the person's language.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly ref?: MessageRef,
    /** Words from elsewhere (a model endpoint, a library) in their own language: sent as the answer's separate `detail` line, never inside the studio's sentence. */
    readonly upstream?: string,
  ) {
    super(message);
    this.name = "AppError";
  }

  /** The message for a person who reads `locale`. */
  messageFor(locale: Locale): string {
    return this.ref ? localize(this.ref, locale) : this.message;
  }
}

/** An AppError whose message comes from the catalogue (English in logs and `message`, the person's language in answers). */
export function appError(code: ErrorCode, key: MessageKey, vars?: MessageRef["vars"], details?: unknown): AppError {
  const ref: MessageRef = vars ? { key, vars } : { key };
  return new AppError(code, localize(ref, "en"), details, ref);
}

/**
 * True when `e` (or an error it wraps) says a disk is full: ENOSPC or EDQUOT from the file system,
 * SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100). Each layer wraps its driver's error
 * differently, so the chain of causes and the messages are both read.
 */
export function isDiskFull(e: unknown): boolean {
  const seen = new Set<unknown>();
  for (let err = e; err && typeof err === "object" && !seen.has(err); err = (err as { cause?: unknown }).cause) {
    seen.add(err);
    const { code, message, originalCode, extendedCode } = err as Record<string, unknown>;
    if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL" || code === "53100" || originalCode === "53100") return true;
    if (extendedCode === 13) return true;
    if (
      typeof message === "string" &&
      /\b(ENOSPC|SQLITE_FULL)\b|database or disk is full|No space left on device|could not extend file/.test(message)
    )
      return true;
  }
  return false;
}

/** A disk-full error in words (507), naming what was being written where the caller knows (`what`), or `e` as it was. */
export function diskFullOr(e: unknown, what: MessageRef = { key: "error.diskFull" }): unknown {
  return !(e instanceof AppError) && isDiskFull(e) ? appError("insufficient_storage", what.key, what.vars) : e;
}
