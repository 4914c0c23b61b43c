// Every route under app/api answers 401 and returns no data without a session or token, except the
// few that must be public. The list comes from the file system, so a new route cannot skip this.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { freshStudio } from "./testing/fixtures";
import { API_DIR, routeFiles } from "./testing/route-calls";

const PUBLIC_ROUTES = new Set(["health", "auth/[...all]"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A concrete URL and params for a route pattern such as trajectories/[id]. */
function concrete(route: string) {
  const params: Record<string, string> = {};
  const urlPath = route.replace(/\[(\.\.\.)?(\w+)\]/g, (_m, _rest, name: string) => {
    params[name] = name === "sha" ? "a".repeat(64) : `test-${name}`;
    return params[name]!;
  });
  return { url: `http://127.0.0.1:3000/api/${urlPath}`, params };
}

const routes = routeFiles();

describe("every API route needs a session or a token", () => {
  beforeAll(async () => {
    await freshStudio();
  });

  it("finds the route files", () => {
    expect(routes).toEqual(expect.arrayContaining(["trajectories", "trajectories/[id]", "screenshots/[sha]", "imports", "stats"]));
  });

  for (const route of routes.filter((r) => !PUBLIC_ROUTES.has(r))) {
    it(`/api/${route} answers 401 without credentials`, async () => {
      const mod = (await import(pathToFileURL(path.join(API_DIR, route, "route.ts")).href)) as Record<string, unknown>;
      const handlers = METHODS.filter((m) => typeof mod[m] === "function");
      expect(handlers.length).toBeGreaterThan(0);
      const { url, params } = concrete(route);
      for (const method of handlers) {
        const handler = mod[method] as (req: Request, ctx: unknown) => Promise<Response>;
        const hasBody = method !== "GET" && method !== "DELETE";
        const req = new Request(url, {
          method,
          headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000" },
          body: hasBody ? "{}" : undefined,
        });
        const res = await handler(req, { params: Promise.resolve(params) });
        expect(res.status, `${method} /api/${route}`).toBe(401);
        const body = (await res.json()) as Record<string, unknown>;
        expect(Object.keys(body), `${method} /api/${route} returns only an error`).toEqual(["error"]);
      }
    });
  }

  it("and a forged or revoked token is no better", async () => {
    const mod = (await import(pathToFileURL(path.join(API_DIR, "stats", "route.ts")).href)) as {
      GET: (r: Request, c: unknown) => Promise<Response>;
    };
    const res = await mod.GET(
      new Request("http://127.0.0.1:3000/api/stats", { headers: { authorization: "Bearer studio_not-a-real-token" } }),
      {},
    );
    expect(res.status).toBe(401);
  });
});
