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
