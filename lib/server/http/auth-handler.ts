import { LIMITS } from "@/lib/domain/limits";
import { betterAuth } from "../people";
import { readBoundedText } from "./body";
import { errorResponse, json } from "./respond";
import { refuseNul } from "./nul";

export const AUTH_BASE_PATH = "/api/auth";

/**
 * The better-auth endpoints the studio uses over HTTP; every other one (update-user, sign-up,
 * reset-password, list-sessions, ...) answers 404 without reaching better-auth. People's names,
 * roles and languages change through /api/me and /api/users, which validate and audit.
 */
export const OPEN_AUTH_ROUTES = ["POST /sign-in/email", "POST /sign-out", "POST /change-password"] as const;

/**
 * /api/auth/*: only the open routes, with bodies bounded before anything parses them, then
 * better-auth's own handler (which adds its rate limits, the sign-in hooks and their audit rows).
 */
export async function authHandler(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  const sub = pathname.startsWith(`${AUTH_BASE_PATH}/`) ? pathname.slice(AUTH_BASE_PATH.length) : null;
  if (!sub || !(OPEN_AUTH_ROUTES as readonly string[]).includes(`${req.method} ${sub}`)) {
    return json({ error: { code: "not_found", message: `${req.method} ${pathname} is not an endpoint of this studio.` } }, 404);
  }
  let body: string;
  try {
    body = await readBoundedText(req, LIMITS.authBodyBytes);
    // A NUL in an email or password answers 422 naming the field, as on every other route (PostgreSQL cannot look it up).
    if (body.includes("\\u0000") || body.includes("\0")) refuseNul(parsedOrNothing(body));
  } catch (e) {
    return errorResponse(e);
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return (await betterAuth()).handler(new Request(req.url, { method: req.method, headers, body }));
}

/** The body as JSON, or nothing when it is not JSON (better-auth answers that itself). */
function parsedOrNothing(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}
