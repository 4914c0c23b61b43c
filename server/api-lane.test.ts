// The API lane over real HTTP: a Node server with the lane's listener in front of a stand-in for Next
// (a handler that answers 299, so a test sees which side answered), the real app/api route handlers,
// and a fresh SQLite studio. What the lane must keep of Next: route precedence, decoded params, the
// security headers, cookies, streamed and bounded bodies, the same-origin check, x-forwarded-for.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "@/lib/domain/security-headers";
import { SYSTEM_ACTOR } from "@/lib/server/people/audit";
import { createUser } from "@/lib/server/people";
import { freshStudio } from "@/lib/server/testing/fixtures";
import { NEXT_STAND_IN_STATUS, signIn as signInAs, startLaneServer, type LaneServer } from "@/lib/server/testing/lane-server";
import type { Db } from "@/lib/server/db";
import { loadApiRoutes, matchApiRoute, type ApiRoute } from "./api-lane";

const PASSWORD = "api-lane-password-1";
let routes: ApiRoute[];
let lane: LaneServer;
let base: string;
let prisma: Db;

const send: LaneServer["send"] = (...args) => lane.send(...args);
const signIn = (email: string) => signInAs(lane, email, PASSWORD);

beforeAll(async () => {
  ({ db: prisma } = await freshStudio());
  process.env.STUDIO_SIGN_IN_PER_MINUTE = "1000";
  routes = await loadApiRoutes(path.resolve("app"));
  lane = await startLaneServer(routes);
  base = lane.base;
  await createUser({ actor: SYSTEM_ACTOR, email: "lane-admin@studio.local", role: "admin", password: PASSWORD, name: "Lane" }, prisma);
});

afterAll(async () => {
  await lane.close();
  await prisma.$disconnect();
});

describe("matching a path to a route", () => {
  const fileOf = (p: string) => matchApiRoute(routes, p)?.route.file.split(path.sep).join("/") ?? null;

  it("finds every route file under app/api", () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
    expect(routes.every((r) => r.handlers.size > 0)).toBe(true);
  });

  it("prefers a static segment to a [param], and a [param] to a [...catch-all], as Next does", () => {
    expect(fileOf("/api/reviews/next")).toBe("api/reviews/next/route.ts");
    expect(fileOf("/api/reviews/r1")).toBe("api/reviews/[id]/route.ts");
    expect(fileOf("/api/tasks/next")).toBe("api/tasks/next/route.ts");
    expect(fileOf("/api/trajectories/t1/lease")).toBe("api/trajectories/[id]/lease/route.ts");
    expect(matchApiRoute(routes, "/api/auth/sign-in/email")?.params).toEqual({ all: ["sign-in", "email"] });
  });

  it("decodes params, and leaves to Next what it would answer differently", () => {
    expect(matchApiRoute(routes, "/api/trajectories/a%20b%2Fc")?.params).toEqual({ id: "a b/c" });
    for (const p of ["/api/health/", "/api//health", "/api/trajectories/%E0%A4%A", "/api/h%65alth", "/api/nope", "/apix", "/", "/api"]) {
      expect(matchApiRoute(routes, p), p).toBeNull();
    }
  });
});

describe("answering over HTTP", () => {
  it("serves /api/health itself, with the security headers every answer carries", async () => {
    const res = await send("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true });
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.body));
    for (const { key, value } of SECURITY_HEADERS) expect(res.headers[key.toLowerCase()], key).toBe(value);
  });

  it("hands Next what no route here answers: pages, unknown paths, HEAD, a method the route does not export", async () => {
    for (const [method, p] of [
      ["GET", "/trajectories"],
      ["GET", "/api/nope"],
      ["GET", "/api/health/"],
      ["HEAD", "/api/health"],
      ["OPTIONS", "/api/health"],
      ["DELETE", "/api/health"],
    ] as const) {
      const res = await send(method, p);
      expect(res.status, `${method} ${p}`).toBe(NEXT_STAND_IN_STATUS);
    }
  });

  it("signs in through better-auth (body streamed in, cookies out) and audits the caller's address", async () => {
    const cookie = await signIn("lane-admin@studio.local");
    const me = await send("GET", "/api/me", { cookie });
    expect(me.status, me.body).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ person: { email: "lane-admin@studio.local" } });
    const audit = await prisma.auditEvent.findFirst({ where: { action: "auth.sign_in" }, orderBy: { at: "desc" } });
    expect(audit?.ip).toBe("127.0.0.1");
  });

  it("passes a JSON body to the handler, and the route's own checks still hold", async () => {
    const cookie = await signIn("lane-admin@studio.local");
    const headers = { cookie, origin: base, "content-type": "application/json" };
    const created = await send("POST", "/api/tokens", headers, JSON.stringify({ name: "through the lane" }));
    expect(created.status, created.body).toBe(201);
    expect(JSON.parse(created.body)).toMatchObject({ name: "through the lane", token: expect.stringMatching(/^studio_/) });

    // Cross-site: refused, nothing created.
    const forged = await send("POST", "/api/tokens", { ...headers, origin: "http://evil.example" }, JSON.stringify({ name: "forged" }));
    expect(forged.status).toBe(403);
    // Too big: refused before it is read whole, nothing created.
    const huge = await send("POST", "/api/tokens", headers, JSON.stringify({ name: "x".repeat(3 << 20) }));
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ error: { code: "payload_too_large" } });
    // Too big without a declared length (chunked): cut off at the limit, still a 413 and not a reset.
    const chunked = await send(
      "POST",
      "/api/tokens",
      { ...headers, "transfer-encoding": "chunked" },
      JSON.stringify({ name: "y".repeat(3 << 20) }),
    );
    expect(chunked.status).toBe(413);
    // Not JSON: a 400 naming the problem.
    const broken = await send("POST", "/api/tokens", headers, "{ not json");
    expect(broken.status).toBe(400);

    const listed = await send("GET", "/api/tokens?scope=own", { cookie });
    expect((JSON.parse(listed.body) as { tokens: { name: string }[] }).tokens.map((t) => t.name)).toEqual(["through the lane"]);
  });

  it("sends a route's JSON answer as the very bytes Next would send", async () => {
    const cookie = await signIn("lane-admin@studio.local");
    for (const urlPath of ["/api/me", "/api/tokens?scope=own", "/api/stats", "/api/trajectories?sort=app"]) {
      const lane = await send("GET", urlPath, { cookie });
      const hit = matchApiRoute(routes, urlPath.split("?")[0]!)!;
      const viaNext = await hit.route.handlers.get("GET")!(new Request(`${base}${urlPath}`, { headers: { cookie } }), {
        params: Promise.resolve(hit.params),
      });
      expect(lane.status, urlPath).toBe(viaNext.status);
      expect(lane.headers["content-type"], urlPath).toBe(viaNext.headers.get("content-type"));
      expect(lane.body, urlPath).toBe(await viaNext.text());
      expect(Number(lane.headers["content-length"]), urlPath).toBe(Buffer.byteLength(lane.body));
    }
  });

  it("answers 401 without a session, in the body's error shape", async () => {
    const res = await send("GET", "/api/trajectories");
    expect(res.status).toBe(401);
    expect(Object.keys(JSON.parse(res.body) as object)).toEqual(["error"]);
  });

  it("answers 400, naming the problem, for a request a web Request cannot carry", async () => {
    const res = await send("GET", "/api/health", { host: "bad host name" });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: "bad_request" } });
  });
});
