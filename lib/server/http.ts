import { ZodError } from "zod";
import { AppError, HTTP_STATUS } from "./errors";

export type ApiErrorBody = { error: { code: string; message: string; issues?: unknown } };

/** The one mapping from thrown errors to HTTP answers: { error: { code, message, issues? } }. */
export function errorResponse(e: unknown): Response {
  if (e instanceof ZodError) {
    const issues = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    return json({ error: { code: "unprocessable", message: first ? `${first.path || "input"}: ${first.message}` : "invalid input", issues } }, 422);
  }
  if (e instanceof AppError) {
    return json({ error: { code: e.code, message: e.message, ...(e.details !== undefined ? { issues: e.details } : {}) } }, HTTP_STATUS[e.code]);
  }
  console.error(e);
  return json({ error: { code: "internal", message: "Something went wrong on the server; it has been logged." } }, 500);
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(body, { status, headers });
}

/** Wrap a route handler so every error goes through errorResponse. */
export function route<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      return errorResponse(e);
    }
  };
}
