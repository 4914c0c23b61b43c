export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "payload_too_large"
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
  internal: 500,
  /** the model endpoint answered with an error, or something unusable */
  bad_gateway: 502,
  /** no model endpoint is configured */
  unavailable: 503,
  /** the model endpoint did not answer in time */
  gateway_timeout: 504,
};

/** The one error type use cases throw; `details` is safe to show to the caller. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
}
