import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { databaseUrl, dialectOf, env } from "../env";
import { serverSecret } from "./server-secret";
import { db } from "../db";
import { LIMITS, truncate } from "@/lib/domain/limits";
import { recordAudit } from "./audit";
import {
  ACCOUNT_FAILURE_LIMIT,
  ACCOUNT_FAILURE_WINDOW_MS,
  releaseSignInAttempt,
  reserveSignInAttempt,
  signInKey,
  sweepSignInLimits,
} from "./sign-in-limit";

export { ACCOUNT_FAILURE_LIMIT, ACCOUNT_FAILURE_WINDOW_MS };
/** Sign-in attempts allowed per address per minute (STUDIO_SIGN_IN_PER_MINUTE overrides, e.g. for a shared office address). */
export const ADDRESS_SIGN_IN_LIMIT = env().STUDIO_SIGN_IN_PER_MINUTE ?? 10;
export const SESSION_DAYS = 7;

export function baseUrl(): string {
  return env().BETTER_AUTH_URL ?? `http://127.0.0.1:${env().PORT ?? 3000}`;
}

function createAuth() {
  const url = baseUrl();
  const port = new URL(url).port;
  return betterAuth({
    appName: "Trajectory Studio",
    baseURL: url,
    secret: serverSecret(),
    trustedOrigins: [url, `http://localhost:${port}`, `http://127.0.0.1:${port}`],
    database: prismaAdapter(db(), { provider: dialectOf(databaseUrl()) }),
    telemetry: { enabled: false },
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "annotator", input: false },
        isDisabled: { type: "boolean", required: false, defaultValue: false, input: false },
        locale: { type: "string", required: false, defaultValue: "en", input: true },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 300,
      customRules: { "/sign-in/email": { window: 60, max: ADDRESS_SIGN_IN_LIMIT } },
    },
    advanced: {
      useSecureCookies: url.startsWith("https://"),
      cookiePrefix: "studio",
      ipAddress: { ipAddressHeaders: ["x-forwarded-for", "x-real-ip"] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email") return;
        const raw = (ctx.body as { email?: unknown } | undefined)?.email;
        if (typeof raw !== "string") throw new APIError("BAD_REQUEST", { message: "email: must be a string" });
        if (raw.length > LIMITS.email) throw new APIError("BAD_REQUEST", { message: `email: must be at most ${LIMITS.email} characters` });
        const email = raw.trim().toLowerCase();
        const user = await db().user.findUnique({ where: { email }, select: { isDisabled: true } });
        if (user?.isDisabled) throw new APIError("FORBIDDEN", { message: "This account is disabled. Ask an admin." });
        // Counted before the password is looked at: simultaneous guesses cannot all be evaluated.
        if (!(await reserveSignInAttempt(db(), email))) {
          throw new APIError("TOO_MANY_REQUESTS", {
            message: `Too many failed sign-ins for this account; try again in ${ACCOUNT_FAILURE_WINDOW_MS / 60_000} minutes.`,
          });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/change-password") {
          const session = ctx.context.session;
          if (session && !(ctx.context.returned instanceof APIError)) {
            await recordAudit(db(), {
              actor: { id: session.user.id, label: session.user.email },
              action: "user.password_change",
              entityType: "user",
              entityId: session.user.id,
            });
          }
          return;
        }
        if (ctx.path !== "/sign-in/email") return;
        const returned = ctx.context.returned;
        const raw = (ctx.body as { email?: unknown } | undefined)?.email;
        // Only text of bounded size reaches the audit trail, whatever the caller sent.
        const email = signInKey(typeof raw === "string" ? raw : "");
        const ip = truncate(ctx.request?.headers.get("x-forwarded-for") ?? "", 100) || null;
        if (returned instanceof APIError && returned.status === "UNAUTHORIZED") {
          // The slot stays taken: it is now one of the account's failures.
          await recordAudit(db(), {
            actor: { id: null, label: email },
            action: "auth.sign_in_failed",
            entityType: "user",
            entityId: email,
            ip,
          });
          return;
        }
        // After hooks run only when the before hook let the attempt through, i.e. reserved a slot.
        await releaseSignInAttempt(db(), email);
        if (returned instanceof APIError) return;
        const user = await db().user.findUnique({ where: { email }, select: { id: true } });
        await recordAudit(db(), {
          actor: { id: user?.id ?? null, label: email },
          action: "auth.sign_in",
          entityType: "user",
          entityId: user?.id,
          ip,
        });
        await sweepSignInLimits(db());
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
const globalForAuth = globalThis as unknown as { studioAuth?: { key: string; auth: Auth } };

/** The better-auth instance for this process (one per database and base URL). */
export function auth(): Auth {
  const key = `${databaseUrl()} ${baseUrl()}`;
  if (globalForAuth.studioAuth?.key !== key) globalForAuth.studioAuth = { key, auth: createAuth() };
  return globalForAuth.studioAuth.auth;
}

/** Hash a password the way better-auth verifies it (scrypt, from its own context). */
export async function hashPassword(password: string): Promise<string> {
  const ctx = await auth().$context;
  return ctx.password.hash(password);
}
