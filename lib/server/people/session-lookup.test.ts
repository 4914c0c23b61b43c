// The session lookup on the API's hot path (lib/server/people/session.ts): one query, no cache. Every way
// a session ends takes effect on the very next request, a forged or altered cookie is nobody, and a
// session due for its daily refresh is still extended by better-auth.
import { beforeAll, describe, expect, it } from "vitest";
import { auth, baseUrl, SESSION_DAYS } from "./auth";
import { authHandler } from "../http/auth-handler";
import { CLI_ACTOR } from "./audit";
import { createDb, type Db } from "../db";
import { createUser, resetPassword, updateUser } from "./";
import { getActor, verifiedSessionToken } from "./session";
import { freshStudio } from "../testing/fixtures";

let db: Db;
let url: string;
let n = 0;

async function signIn(email: string, password = "correct horse") {
  const res = await authHandler(
    new Request(`${baseUrl()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": `10.7.0.${++n}` },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(res.status).toBe(200);
  return (res.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
}

const tokenOf = (cookie: string) => decodeURIComponent(cookie.match(/session_token=([^;]+)/)![1]!).split(".")[0]!;

beforeAll(async () => {
  ({ db, url } = await freshStudio());
  for (const email of ["a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com", "f@example.com"]) {
    await createUser({ actor: CLI_ACTOR, email, role: "annotator", password: "correct horse" });
  }
});

describe("the session lookup", () => {
  it("knows the person from a signed-in cookie, and nobody from a forged, altered or foreign cookie", async () => {
    const cookie = await signIn("a@example.com");
    expect((await getActor(new Headers({ cookie })))?.email).toBe("a@example.com");
    const [name, value] = cookie.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const token = decoded.slice(0, decoded.lastIndexOf("."));
    // Another session's token with this one's signature, a token with no signature, a flipped signature byte.
    const other = tokenOf(await signIn("b@example.com"));
    expect(
      await getActor(new Headers({ cookie: `${name}=${encodeURIComponent(other + decoded.slice(decoded.lastIndexOf(".")))}` })),
    ).toBeNull();
    expect(await getActor(new Headers({ cookie: `${name}=${token}` }))).toBeNull();
    const sig = decoded.slice(decoded.lastIndexOf(".") + 1);
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    expect(await getActor(new Headers({ cookie: `${name}=${encodeURIComponent(`${token}.${flipped}`)}` }))).toBeNull();
    expect(await getActor(new Headers({ cookie: `${name}=%E0%A4%A` }))).toBeNull();
    expect(verifiedSessionToken(value, "not the studio's secret")).toBeNull();
    // better-auth writes the canonical form, the one whose check is remembered; another spelling of the
    // same value (a percent-encoded letter) still verifies.
    const sigBytes = Buffer.from(decoded.slice(decoded.lastIndexOf(".") + 1), "base64");
    expect(value).toBe(encodeURIComponent(`${token}.${sigBytes.toString("base64")}`));
    const respelled = `%${token.charCodeAt(0).toString(16).toUpperCase()}${value.slice(1)}`;
    expect(verifiedSessionToken(respelled, (await auth().$context).secret)).toBe(token);
    expect((await getActor(new Headers({ cookie: `${name}=${respelled}` })))?.email).toBe("a@example.com");
    // The same cookie under another name is not a session cookie.
    expect(await getActor(new Headers({ cookie: `other=${value}` }))).toBeNull();
  });

  it("forgets the person at once when they sign out", async () => {
    const cookie = await signIn("c@example.com");
    expect(await getActor(new Headers({ cookie }))).not.toBeNull();
    const res = await authHandler(
      new Request(`${baseUrl()}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie, origin: baseUrl(), "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(200);
    expect(await getActor(new Headers({ cookie }))).toBeNull();
  });

  it("ends every session of a person whose password an admin resets, and of a person disabled, on the next request", async () => {
    const one = await signIn("d@example.com");
    const two = await signIn("d@example.com");
    expect(await getActor(new Headers({ cookie: one }))).not.toBeNull();
    await resetPassword({ actor: CLI_ACTOR, id: "d@example.com" });
    expect(await getActor(new Headers({ cookie: one }))).toBeNull();
    expect(await getActor(new Headers({ cookie: two }))).toBeNull();

    const three = await signIn("e@example.com");
    expect(await getActor(new Headers({ cookie: three }))).not.toBeNull();
    await updateUser({ actor: CLI_ACTOR, id: "e@example.com", isDisabled: true });
    expect(await getActor(new Headers({ cookie: three }))).toBeNull();
  });

  it("honours a session revoked or expired by another instance sharing the database (no cache to go stale)", async () => {
    const cookie = await signIn("f@example.com");
    expect(await getActor(new Headers({ cookie }))).not.toBeNull();
    // A second client on the same database file stands for another instance.
    const other = createDb(url);
    await other.session.update({ where: { token: tokenOf(cookie) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await getActor(new Headers({ cookie }))).toBeNull();
    const again = await signIn("f@example.com");
    expect(await getActor(new Headers({ cookie: again }))).not.toBeNull();
    await other.session.deleteMany({ where: { token: tokenOf(again) } });
    expect(await getActor(new Headers({ cookie: again }))).toBeNull();
    await other.$disconnect();
  });

  it("lets better-auth extend a session due for its daily refresh, and still answers with the person", async () => {
    const cookie = await signIn("a@example.com");
    const token = tokenOf(cookie);
    const { updateAge } = (await auth().$context).sessionConfig;
    // A session two days old: past the refresh age, not expired.
    const old = new Date(Date.now() + SESSION_DAYS * 86_400_000 - 2 * updateAge * 1000);
    await db.session.update({ where: { token }, data: { expiresAt: old } });
    expect((await getActor(new Headers({ cookie })))?.email).toBe("a@example.com");
    const after = await db.session.findUniqueOrThrow({ where: { token } });
    expect(after.expiresAt.getTime()).toBeGreaterThan(old.getTime() + updateAge * 1000);
  });
});
