// Every handler under app/api goes through the one route wrapper (lib/server/http/route.ts) and declares
// the permission it needs; only the liveness probe and the sign-in endpoints are public. Every route
// that reads a JSON body answers malformed JSON with 400 (not 422, not 500). The list of routes comes
// from the file system, so a new route cannot skip this.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import { createUser } from "../people";
import type { RouteHandler } from "./route";
import { freshStudio } from "../testing/fixtures";
import { API_DIR, routeFiles } from "../testing/route-calls";
import { createToken } from "../people/tokens";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const PUBLIC = new Set(["health", "auth/[...all]"]);
const DECLARABLE = new Set<string>([...ACTIONS, "signed-in", "public"]);

const routes = routeFiles();
const load = async (r: string) => (await import(pathToFileURL(path.join(API_DIR, r, "route.ts")).href)) as Record<string, unknown>;
const handlersOf = (mod: Record<string, unknown>) =>
  METHODS.filter((m) => typeof mod[m] === "function").map((m) => [m, mod[m] as RouteHandler] as const);

describe("every API route goes through the route wrapper", () => {
  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  for (const r of routes) {
    it(`/api/${r}: every method declares a permission${PUBLIC.has(r) ? " (public)" : ""}`, async () => {
      const handlers = handlersOf(await load(r));
      expect(handlers.length).toBeGreaterThan(0);
      for (const [method, handler] of handlers) {
        expect(DECLARABLE.has(handler.permission), `${method} /api/${r} declares ${String(handler.permission)}`).toBe(true);
        expect(handler.permission === "public", `${method} /api/${r} is public`).toBe(PUBLIC.has(r));
      }
    });
  }

  it("route files stay thin: no database, file system or hand-rolled authorisation", () => {
    const offenders = routes.filter((r) => {
      const text = readFileSync(path.join(API_DIR, r, "route.ts"), "utf8");
      // The route wrapper comes from the http face; its raw helpers (readJson, json, errorResponse) stay inside it.
      return /from "node:fs|@\/lib\/server\/(db|fast)"|authorize\(|\bcan\(|readJson\(|errorResponse\(|(?<![.\w])json\(/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

describe("malformed JSON is the caller's mistake everywhere", () => {
  let token: string;
  beforeAll(async () => {
    const { db } = await freshStudio();
    await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "password-123" }, db);
    token = (await createToken({ actor: CLI_ACTOR, user: "boss@example.com", name: "t" }, db)).token;
  });

  it("every route that reads a JSON body answers 400 to a body that is not JSON, and names the problem", async () => {
    const answers: string[] = [];
    for (const r of routes.filter((x) => !PUBLIC.has(x))) {
      for (const [method, handler] of handlersOf(await load(r))) {
        if (!handler.readsBody) continue;
        const url = `http://127.0.0.1:3000/api/${r.replace(/\[(\w+)\]/g, "x")}`;
        const req = new Request(url, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: '{"not json',
        });
        const res = await handler(req, { params: Promise.resolve({ id: "x" }) });
        const body = (await res.json()) as { error?: { message: string } };
        answers.push(`${method} /api/${r} ${res.status} ${body.error?.message ?? ""}`);
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(10);
    for (const a of answers) expect(a).toMatch(/ 400 .*not valid JSON/);
  });
});
