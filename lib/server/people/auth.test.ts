import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/domain/limits";
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_SIGN_IN_LIMIT, baseUrl } from "./auth";
import { authHandler } from "../http/auth-handler";
import { CLI_ACTOR } from "./audit";
import type { Db } from "../db";
import { createUser, resetPassword, updateUser } from "./index";
import { getActor } from "./session";
import { createToken, revokeToken } from "./tokens";
import { freshStudio } from "../testing/fixtures";

let db: Db;
let ipCounter = 0;

/** POST /api/auth/sign-in/email through the studio's auth route (better-auth's real handler), from its own address unless given. */
async function signIn(email: string, password: string, ip = `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`) {
  const res = await authHandler(
    new Request(`${baseUrl()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": ip },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  return { status: res.status, cookie };
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "correct horse" });
  await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "correct horse" });
});

describe("sign-in", () => {
  it("gives a session cookie that identifies the person, and records it", async () => {
    const { status, cookie } = await signIn("ann@example.com", "correct horse");
    expect(status).toBe(200);
    expect(cookie).toMatch(/session_token=/);
    const actor = await getActor(new Headers({ cookie }));
    expect(actor).toMatchObject({ email: "ann@example.com", role: "annotator" });
    // A request that claims a token is judged by the token alone, never by the cookie beside it.
    expect(await getActor(new Headers({ cookie, authorization: "Bearer two words" }))).toBeNull();
    expect(await getActor(new Headers({ cookie, authorization: "Bearer" }))).toBeNull();
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in", actorLabel: "ann@example.com" } })).toBe(1);
  });

  it(`locks an account after ${ACCOUNT_FAILURE_LIMIT} failed attempts, even from different addresses`, async () => {
    await createUser({ actor: CLI_ACTOR, email: "target@example.com", role: "reviewer", password: "correct horse" });
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) expect((await signIn("target@example.com", `guess-${i}`)).status).toBe(401);
    expect((await signIn("target@example.com", "correct horse")).status).toBe(429);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", entityId: "target@example.com" } })).toBe(
      ACCOUNT_FAILURE_LIMIT,
    );
  });

  it(`limits one address to ${ADDRESS_SIGN_IN_LIMIT} attempts a minute`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= ADDRESS_SIGN_IN_LIMIT; i++)
      statuses.push((await signIn(`nobody${i}@example.com`, "x-password", "10.8.8.8")).status);
    expect(statuses.slice(0, ADDRESS_SIGN_IN_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[ADDRESS_SIGN_IN_LIMIT]).toBe(429);
  });

  it("shuts a disabled person out at once, sessions and tokens alike", async () => {
    await createUser({ actor: CLI_ACTOR, email: "leaver@example.com", role: "reviewer", password: "correct horse" });
    const { cookie } = await signIn("leaver@example.com", "correct horse");
    const { token } = await createToken({ actor: CLI_ACTOR, user: "leaver@example.com", name: "pipeline" });
    expect(await getActor(new Headers({ cookie }))).not.toBeNull();
    expect(await getActor(new Headers({ authorization: `Bearer ${token}` }))).not.toBeNull();

    await updateUser({ actor: CLI_ACTOR, id: "leaver@example.com", isDisabled: true });
    expect(await getActor(new Headers({ cookie }))).toBeNull();
    expect(await getActor(new Headers({ authorization: `Bearer ${token}` }))).toBeNull();
    expect((await signIn("leaver@example.com", "correct horse")).status).toBe(403);
    const audit = await db.auditEvent.findFirst({ where: { action: "user.disable" } });
    expect(JSON.parse(audit!.beforeJson!)).toEqual({ isDisabled: false });
    expect(JSON.parse(audit!.afterJson!)).toEqual({ isDisabled: true });
  });

  it("signs a person out everywhere when an admin resets their password", async () => {
    const { cookie } = await signIn("boss@example.com", "correct horse");
    await createUser({ actor: CLI_ACTOR, email: "second-admin@example.com", role: "admin", password: "correct horse" });
    const fresh = await resetPassword({ actor: CLI_ACTOR, id: "boss@example.com" });
    expect(await getActor(new Headers({ cookie }))).toBeNull();
    expect((await signIn("boss@example.com", "correct horse")).status).toBe(401);
    expect((await signIn("boss@example.com", fresh)).status).toBe(200);
  });

  it("records a person's own password change in the audit trail", async () => {
    await createUser({ actor: CLI_ACTOR, email: "changer@example.com", role: "annotator", password: "correct horse" });
    const { cookie } = await signIn("changer@example.com", "correct horse");
    const res = await authHandler(
      new Request(`${baseUrl()}/api/auth/change-password`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl(), cookie },
        body: JSON.stringify({ currentPassword: "correct horse", newPassword: "battery staple 2", revokeOtherSessions: true }),
      }),
    );
    expect(res.status).toBe(200);
    const user = await db.user.findUniqueOrThrow({ where: { email: "changer@example.com" } });
    expect(await db.auditEvent.count({ where: { action: "user.password_change", entityId: user.id, actorId: user.id } })).toBe(1);
    expect((await signIn("changer@example.com", "battery staple 2")).status).toBe(200);
  });

  it("evaluates at most the account's limit of simultaneous guesses, and gives no session to the right one that comes after them", async () => {
    await createUser({ actor: CLI_ACTOR, email: "raced@example.com", role: "annotator", password: "correct horse" });
    const user = await db.user.findUniqueOrThrow({ where: { email: "raced@example.com" } });
    // 60 at once, each from its own address (so the per-address limit plays no part): 59 wrong, the right one last.
    const attempts = Array.from({ length: 60 }, (_, i) => signIn("raced@example.com", i === 59 ? "correct horse" : `wrong-guess-${i}`));
    const results = await Promise.all(attempts);
    const statuses = results.map((r) => r.status);
    const evaluatedFailures = statuses.filter((s) => s === 401).length;
    expect(evaluatedFailures).toBeGreaterThan(0);
    expect(evaluatedFailures).toBeLessThanOrEqual(ACCOUNT_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBe(60 - evaluatedFailures);
    expect(statuses[59]).toBe(429);
    expect(results.some((r) => /session_token=/.test(r.cookie))).toBe(false);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", entityId: "raced@example.com" } })).toBe(evaluatedFailures);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in", actorId: user.id } })).toBe(0);
  });

  it("gives a successful sign-in's slot back, so a person who signs in often is never locked out by it", async () => {
    await createUser({ actor: CLI_ACTOR, email: "daily@example.com", role: "annotator", password: "correct horse" });
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT + 3; i++) expect((await signIn("daily@example.com", "correct horse")).status).toBe(200);
    expect(await db.signInLimit.findUnique({ where: { email: "daily@example.com" } })).toMatchObject({ attempts: 0 });
  });

  it("refuses an oversized email before counting or auditing anything, and audits failures with bounded text", async () => {
    const huge = `${"a".repeat(100_000)}@example.com`;
    const before = await db.auditEvent.count();
    const res = await authHandler(
      new Request(`${baseUrl()}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": "10.7.0.1" },
        body: JSON.stringify({ email: huge, password: "x-password" }),
      }),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/limit of 16,000 bytes/);
    // Under the body limit but over the email limit: refused by name.
    const long = `${"b".repeat(LIMITS.email)}@example.com`;
    const res2 = await authHandler(
      new Request(`${baseUrl()}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": "10.7.0.2" },
        body: JSON.stringify({ email: long, password: "x-password" }),
      }),
    );
    expect(res2.status).toBe(400);
    expect((await res2.json()).message).toMatch(/email: must be at most 254 characters/);
    expect(await db.auditEvent.count()).toBe(before);
    expect(await db.signInLimit.count({ where: { email: { startsWith: "bbbb" } } })).toBe(0);

    // A failure that is audited stores at most the email limit, whatever else came with it.
    expect((await signIn(`${"c".repeat(240)}@example.com`, "x-password")).status).toBe(401);
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "auth.sign_in_failed", actorLabel: { startsWith: "cccc" } } });
    expect(row.actorLabel.length).toBeLessThanOrEqual(LIMITS.email);
    expect((row.entityId ?? "").length).toBeLessThanOrEqual(LIMITS.email);
  });

  it("keeps better-auth's endpoints the studio does not use closed", async () => {
    const { cookie } = await signIn("ann@example.com", "correct horse");
    const userBefore = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
    const auditBefore = await db.auditEvent.count();
    const call = (method: string, p: string, body?: unknown) =>
      authHandler(
        new Request(`${baseUrl()}/api/auth${p}`, {
          method,
          headers: { "content-type": "application/json", origin: baseUrl(), cookie },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const evil = { name: "n".repeat(200_000), image: "javascript:alert(1)" };
    for (const [method, p, body] of [
      ["POST", "/update-user", evil],
      ["POST", "/update-user/", evil],
      ["POST", "//update-user", evil],
      ["POST", "/sign-up/email", { email: "new@example.com", password: "correct horse", name: "x" }],
      ["GET", "/get-session", undefined],
      ["GET", "/list-sessions", undefined],
      ["POST", "/revoke-sessions", {}],
      ["POST", "/delete-user", {}],
      ["POST", "/request-password-reset", { email: "ann@example.com" }],
      ["POST", "/change-email", { newEmail: "x@example.com" }],
      ["POST", "/sign-in/email/", { email: "ann@example.com", password: "correct horse" }],
      ["GET", "/sign-in/email", undefined],
    ] as const) {
      const res = await call(method, p, body);
      expect(res.status, `${method} ${p}`).toBe(404);
    }
    const userAfter = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
    expect(userAfter).toEqual(userBefore);
    expect(await db.user.count({ where: { email: "new@example.com" } })).toBe(0);
    expect(await db.auditEvent.count()).toBe(auditBefore);
    expect(await getActor(new Headers({ cookie }))).not.toBeNull();
    // The one it does use still works.
    expect((await call("POST", "/sign-out", {})).status).toBe(200);
    expect(await getActor(new Headers({ cookie }))).toBeNull();
  });

  it("ends a person's API tokens when an admin resets their password, and says so in the audit row", async () => {
    await createUser({ actor: CLI_ACTOR, email: "piped@example.com", role: "reviewer", password: "correct horse" });
    const t1 = await createToken({ actor: CLI_ACTOR, user: "piped@example.com", name: "pipeline" });
    const t2 = await createToken({ actor: CLI_ACTOR, user: "piped@example.com", name: "notebook" });
    expect(await getActor(new Headers({ authorization: `Bearer ${t1.token}` }))).not.toBeNull();
    await resetPassword({ actor: CLI_ACTOR, id: "piped@example.com" });
    expect(await getActor(new Headers({ authorization: `Bearer ${t1.token}` }))).toBeNull();
    expect(await getActor(new Headers({ authorization: `Bearer ${t2.token}` }))).toBeNull();
    const user = await db.user.findUniqueOrThrow({ where: { email: "piped@example.com" } });
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "user.password_reset", entityId: user.id } });
    expect(JSON.parse(row.afterJson!)).toEqual({ sessionsEnded: 0, tokensRevoked: 2 });
  });

  it("keeps the last active admin", async () => {
    await expect(updateUser({ actor: CLI_ACTOR, id: "second-admin@example.com", role: "reviewer" })).resolves.toBeTruthy();
    await expect(updateUser({ actor: CLI_ACTOR, id: "boss@example.com", isDisabled: true })).rejects.toThrow(/last active admin/);
  });
});

describe("API tokens", () => {
  it("act as their owner until revoked, and are stored only as a hash", async () => {
    const t = await createToken({ actor: CLI_ACTOR, user: "ann@example.com", name: "ci" });
    expect(await getActor(new Headers({ authorization: `Bearer ${t.token}` }))).toMatchObject({ email: "ann@example.com" });
    const row = await db.apiToken.findUnique({ where: { id: t.id } });
    expect(JSON.stringify(row)).not.toContain(t.token);
    await revokeToken({ actor: CLI_ACTOR, id: t.id });
    expect(await getActor(new Headers({ authorization: `Bearer ${t.token}` }))).toBeNull();
    expect(await db.auditEvent.count({ where: { action: { in: ["token.create", "token.revoke"] }, entityId: t.id } })).toBe(2);
  });
});
