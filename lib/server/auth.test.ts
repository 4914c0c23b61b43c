import { beforeAll, describe, expect, it } from "vitest";
import { auth, ACCOUNT_FAILURE_LIMIT, ADDRESS_SIGN_IN_LIMIT, baseUrl } from "./auth";
import { CLI_ACTOR } from "./audit";
import type { Db } from "./db";
import { createUser, resetPassword, updateUser } from "./people";
import { getActor } from "./session";
import { createToken, revokeToken } from "./tokens";
import { freshStudio } from "./testing/fixtures";

let db: Db;
let ipCounter = 0;

/** POST /api/auth/sign-in/email through better-auth's real handler, from its own address unless given. */
async function signIn(email: string, password: string, ip = `10.9.0.${++ipCounter}`) {
  const res = await auth().handler(
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
  await createUser(CLI_ACTOR, { email: "ann@example.com", role: "annotator", password: "correct horse" });
  await createUser(CLI_ACTOR, { email: "boss@example.com", role: "admin", password: "correct horse" });
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
    await createUser(CLI_ACTOR, { email: "target@example.com", role: "reviewer", password: "correct horse" });
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) expect((await signIn("target@example.com", `guess-${i}`)).status).toBe(401);
    expect((await signIn("target@example.com", "correct horse")).status).toBe(429);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", entityId: "target@example.com" } })).toBe(ACCOUNT_FAILURE_LIMIT);
  });

  it(`limits one address to ${ADDRESS_SIGN_IN_LIMIT} attempts a minute`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= ADDRESS_SIGN_IN_LIMIT; i++) statuses.push((await signIn(`nobody${i}@example.com`, "x-password", "10.8.8.8")).status);
    expect(statuses.slice(0, ADDRESS_SIGN_IN_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[ADDRESS_SIGN_IN_LIMIT]).toBe(429);
  });

  it("shuts a disabled person out at once, sessions and tokens alike", async () => {
    await createUser(CLI_ACTOR, { email: "leaver@example.com", role: "reviewer", password: "correct horse" });
    const { cookie } = await signIn("leaver@example.com", "correct horse");
    const { token } = await createToken(CLI_ACTOR, "leaver@example.com", "pipeline");
    expect(await getActor(new Headers({ cookie }))).not.toBeNull();
    expect(await getActor(new Headers({ authorization: `Bearer ${token}` }))).not.toBeNull();

    await updateUser(CLI_ACTOR, "leaver@example.com", { isDisabled: true });
    expect(await getActor(new Headers({ cookie }))).toBeNull();
    expect(await getActor(new Headers({ authorization: `Bearer ${token}` }))).toBeNull();
    expect((await signIn("leaver@example.com", "correct horse")).status).toBe(403);
    const audit = await db.auditEvent.findFirst({ where: { action: "user.disable" } });
    expect(JSON.parse(audit!.beforeJson!)).toEqual({ isDisabled: false });
    expect(JSON.parse(audit!.afterJson!)).toEqual({ isDisabled: true });
  });

  it("signs a person out everywhere when an admin resets their password", async () => {
    const { cookie } = await signIn("boss@example.com", "correct horse");
    await createUser(CLI_ACTOR, { email: "second-admin@example.com", role: "admin", password: "correct horse" });
    const fresh = await resetPassword(CLI_ACTOR, "boss@example.com");
    expect(await getActor(new Headers({ cookie }))).toBeNull();
    expect((await signIn("boss@example.com", "correct horse")).status).toBe(401);
    expect((await signIn("boss@example.com", fresh)).status).toBe(200);
  });

  it("records a person's own password change in the audit trail", async () => {
    await createUser(CLI_ACTOR, { email: "changer@example.com", role: "annotator", password: "correct horse" });
    const { cookie } = await signIn("changer@example.com", "correct horse");
    const res = await auth().handler(
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

  it("keeps the last active admin", async () => {
    await expect(updateUser(CLI_ACTOR, "second-admin@example.com", { role: "reviewer" })).resolves.toBeTruthy();
    await expect(updateUser(CLI_ACTOR, "boss@example.com", { isDisabled: true })).rejects.toThrow(/last active admin/);
  });
});

describe("API tokens", () => {
  it("act as their owner until revoked, and are stored only as a hash", async () => {
    const t = await createToken(CLI_ACTOR, "ann@example.com", "ci");
    expect(await getActor(new Headers({ authorization: `Bearer ${t.token}` }))).toMatchObject({ email: "ann@example.com" });
    const row = await db.apiToken.findUnique({ where: { id: t.id } });
    expect(JSON.stringify(row)).not.toContain(t.token);
    await revokeToken(CLI_ACTOR, t.id);
    expect(await getActor(new Headers({ authorization: `Bearer ${t.token}` }))).toBeNull();
    expect(await db.auditEvent.count({ where: { action: { in: ["token.create", "token.revoke"] }, entityId: t.id } })).toBe(2);
  });
});
