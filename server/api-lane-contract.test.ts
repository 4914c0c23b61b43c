// Issue 23: the API lane answers what Next would. Every method of every route file under app/api gets at
// least one request twice on the same studio (testing/matrix-studio.ts: real people, tokens, an import):
// once through the lane over real HTTP, once the way Next calls a route (its handler with a web Request
// and the decoded params). Status, the headers that matter and the body bytes must agree; where two calls
// rightly differ (a fresh id, a time, a new secret) only the named fields are normalised first.
// Mutations run with credentials where a valid body is safe to send twice; otherwise with no credentials
// or a body the route refuses, so both paths must give the same 401 or 422.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "@/lib/domain/security-headers";
import { seedMatrixStudio, type MatrixStudio, type Who } from "@/lib/server/testing/matrix-studio";
import { signIn, startLaneServer, type LaneServer, type RawAnswer } from "@/lib/server/testing/lane-server";
import { loadApiRoutes, matchApiRoute, type ApiRoute } from "./api-lane";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type World = MatrixStudio & { sha: string; projectName: string };
type Case = {
  /** The route file's folder under app/api, e.g. "trajectories/[id]". */
  route: string;
  method: Method;
  /** The path and query, from the studio's real ids. */
  url: (w: World) => string;
  /** Whose credentials: a person's API token, the admin's session cookie, or none. */
  as: Who | "session" | "none";
  /** A JSON body (mutations); sent as the same bytes both ways. */
  body?: (w: World) => object | string;
  /** JSON fields whose values differ between two calls (fresh ids, times, secrets), compared as present only. */
  differs?: string[];
};

const A: Who = "admin";

const CASES: Case[] = [
  { route: "assignments", method: "GET", url: () => "/api/assignments", as: A },
  {
    route: "assignments",
    method: "POST",
    url: () => "/api/assignments",
    as: A,
    body: (w) => ({ trajectoryIds: [w.mine], assignee: "annotator@example.com" }),
  },
  { route: "audit/facets", method: "GET", url: () => "/api/audit/facets", as: A },
  { route: "audit", method: "GET", url: () => "/api/audit", as: A },
  { route: "auth/[...all]", method: "GET", url: () => "/api/auth/get-session", as: "session" },
  {
    route: "auth/[...all]",
    method: "POST",
    url: () => "/api/auth/sign-in/email",
    as: "none",
    body: () => ({ email: "reviewer@example.com", password: "password-123" }),
    differs: ["token"],
  },
  {
    route: "auth/[...all]",
    method: "POST",
    url: () => "/api/auth/sign-in/email",
    as: "none",
    body: () => ({ email: "reviewer@example.com", password: "not-the-password" }),
  },
  {
    route: "comments/[id]/replies",
    method: "POST",
    url: (w) => `/api/comments/${w.commentOnMine}/replies`,
    as: A,
    body: () => ({ body: "" }),
  },
  { route: "comments/[id]", method: "PATCH", url: (w) => `/api/comments/${w.commentOnMine}`, as: A, body: () => ({ isResolved: true }) },
  { route: "comments", method: "GET", url: (w) => `/api/comments?trajectoryId=${w.mine}`, as: A },
  {
    route: "comments",
    method: "POST",
    url: () => "/api/comments",
    as: A,
    body: (w) => ({ trajectoryId: w.mine, body: "looks right" }),
    differs: ["id", "createdAt"],
  },
  { route: "dashboard/agreement", method: "GET", url: () => "/api/dashboard/agreement", as: A },
  { route: "dashboard/effort", method: "GET", url: () => "/api/dashboard/effort", as: A },
  { route: "dashboard/gold", method: "GET", url: () => "/api/dashboard/gold", as: A },
  { route: "dashboard", method: "GET", url: () => "/api/dashboard", as: A },
  { route: "dashboard/tables/[table]", method: "GET", url: () => "/api/dashboard/tables/by-app", as: A },
  { route: "dashboard/tables/[table]", method: "GET", url: () => "/api/dashboard/tables/verdicts?format=json", as: "reviewer" },
  { route: "effort", method: "POST", url: () => "/api/effort", as: A, body: () => ({}) },
  { route: "eval-sets/[id]", method: "GET", url: (w) => `/api/eval-sets/${w.evalSet}`, as: A },
  { route: "eval-sets/[id]", method: "PATCH", url: (w) => `/api/eval-sets/${w.evalSet}`, as: A, body: () => ({ heldOut: true }) },
  { route: "eval-sets", method: "GET", url: () => "/api/eval-sets", as: A },
  { route: "eval-sets", method: "POST", url: () => "/api/eval-sets", as: A, body: () => ({ name: "" }) },
  { route: "eval/compare", method: "GET", url: (w) => `/api/eval/compare?a=${w.pausedRun}&b=${w.finishedRun}&rule=ui-s1`, as: A },
  { route: "eval/endpoints", method: "GET", url: () => "/api/eval/endpoints", as: A },
  { route: "eval/endpoints", method: "POST", url: () => "/api/eval/endpoints", as: A, body: () => ({ name: "x" }) },
  { route: "eval/endpoints/test", method: "POST", url: () => "/api/eval/endpoints/test", as: A, body: () => ({ name: "x" }) },
  { route: "eval/runs/[id]/failures", method: "GET", url: (w) => `/api/eval/runs/${w.finishedRun}/failures`, as: A },
  { route: "eval/runs/[id]", method: "GET", url: (w) => `/api/eval/runs/${w.pausedRun}`, as: A },
  { route: "eval/runs/[id]", method: "PATCH", url: (w) => `/api/eval/runs/${w.pausedRun}`, as: A, body: () => ({ command: "explode" }) },
  {
    route: "eval/runs/[id]/send",
    method: "POST",
    url: (w) => `/api/eval/runs/${w.finishedRun}/send`,
    as: A,
    body: () => ({ assignee: "annotator@example.com" }),
  },
  { route: "eval/runs", method: "GET", url: () => "/api/eval/runs?rule=ui-s1", as: A },
  { route: "eval/runs", method: "POST", url: () => "/api/eval/runs", as: A, body: () => ({}) },
  { route: "exports/[id]", method: "GET", url: () => "/api/exports/no-such-export", as: A },
  { route: "exports", method: "GET", url: () => "/api/exports", as: A },
  { route: "exports", method: "POST", url: () => "/api/exports", as: A, body: () => ({ status: "nonsense" }) },
  { route: "gold/rate", method: "GET", url: () => "/api/gold/rate", as: A },
  { route: "gold/rate", method: "PUT", url: () => "/api/gold/rate", as: A, body: (w) => ({ project: w.projectName, rate: 0.2 }) },
  { route: "gold", method: "POST", url: () => "/api/gold", as: A, body: (w) => ({ trajectoryIds: [w.theirs], isGold: false }) },
  { route: "health", method: "GET", url: () => "/api/health", as: "none" },
  { route: "imports/[id]", method: "GET", url: () => "/api/imports/no-such-import", as: A },
  { route: "imports", method: "GET", url: () => "/api/imports", as: A },
  { route: "imports", method: "POST", url: () => "/api/imports", as: A, body: () => ({ format: "ui-s1" }) },
  { route: "judge/agreement", method: "GET", url: () => "/api/judge/agreement", as: A },
  { route: "me", method: "GET", url: () => "/api/me", as: "session" },
  { route: "me", method: "PATCH", url: () => "/api/me", as: "annotator", body: () => ({ locale: "zh" }) },
  { route: "me/settings", method: "GET", url: () => "/api/me/settings", as: "reviewer" },
  { route: "me/settings", method: "PUT", url: () => "/api/me/settings", as: "reviewer", body: () => ({ isLegendCollapsed: true }) },
  { route: "model/jobs/[id]", method: "GET", url: (w) => `/api/model/jobs/${w.pausedJob}`, as: A },
  { route: "model/jobs/[id]", method: "POST", url: (w) => `/api/model/jobs/${w.pausedJob}`, as: A, body: () => ({ command: "explode" }) },
  { route: "model/jobs", method: "GET", url: () => "/api/model/jobs", as: A },
  { route: "model/jobs", method: "POST", url: () => "/api/model/jobs", as: A, body: () => ({ kind: "nonsense" }) },
  { route: "model/settings", method: "GET", url: () => "/api/model/settings", as: A },
  {
    route: "model/settings",
    method: "PUT",
    url: () => "/api/model/settings",
    as: A,
    body: (w) => ({ baseUrl: w.modelUrl, model: "fake-vl", concurrency: 2, timeoutMs: 5_000 }),
  },
  { route: "model/test", method: "POST", url: () => "/api/model/test", as: "none", body: () => ({}) },
  { route: "overlap", method: "POST", url: () => "/api/overlap", as: A, body: (w) => ({ project: w.projectName, share: 0, copies: 2 }) },
  {
    route: "projects/[id]/lane",
    method: "PUT",
    url: (w) => `/api/projects/${w.project}/lane`,
    as: A,
    body: () => ({ fastLaneAfter: "queue" }),
  },
  { route: "projects", method: "GET", url: () => "/api/projects", as: A },
  { route: "releases/diff", method: "GET", url: () => "/api/releases/diff?from=1&to=2", as: A },
  { route: "releases", method: "GET", url: () => "/api/releases", as: A },
  { route: "releases", method: "POST", url: () => "/api/releases", as: A, body: () => ({ status: "all" }) },
  {
    route: "reviews/[id]/claim",
    method: "POST",
    url: (w) => `/api/reviews/${w.theirs}/claim`,
    as: "reviewer",
    body: () => ({}),
    differs: ["leaseUntil"],
  },
  { route: "reviews/[id]/claim", method: "DELETE", url: (w) => `/api/reviews/${w.theirs}/claim`, as: "reviewer" },
  { route: "reviews/[id]", method: "GET", url: (w) => `/api/reviews/${w.theirs}`, as: "reviewer" },
  { route: "reviews/[id]", method: "POST", url: (w) => `/api/reviews/${w.theirs}`, as: "reviewer", body: () => ({ decision: "maybe" }) },
  { route: "reviews/next", method: "POST", url: () => "/api/reviews/next", as: "none", body: () => ({}) },
  { route: "reviews", method: "GET", url: () => "/api/reviews", as: "reviewer" },
  { route: "screenshots/[sha]", method: "GET", url: (w) => `/api/screenshots/${w.sha}`, as: "annotator" },
  { route: "screenshots/[sha]", method: "GET", url: (w) => `/api/screenshots/${w.sha}?variant=original`, as: A },
  { route: "stats", method: "GET", url: () => "/api/stats", as: A },
  {
    route: "steps/[id]/annotation",
    method: "PUT",
    url: (w) => `/api/steps/${w.stepOfMine}/annotation`,
    as: "annotator",
    body: () => ({ version: 0 }),
  },
  { route: "steps/[id]/suggestions", method: "GET", url: (w) => `/api/steps/${w.stepOfMine}/suggestions`, as: "annotator" },
  {
    route: "steps/[id]/suggestions",
    method: "POST",
    url: (w) => `/api/steps/${w.stepOfMine}/suggestions`,
    as: "none",
    body: () => ({ kind: "thought" }),
  },
  {
    route: "suggestions/[id]/accept",
    method: "POST",
    url: (w) => `/api/suggestions/${w.suggestionOnMine}/accept`,
    as: "reviewer",
    body: () => ({}),
  },
  { route: "tasks/next", method: "POST", url: () => "/api/tasks/next", as: "none", body: () => ({}) },
  { route: "tasks", method: "GET", url: () => "/api/tasks", as: "annotator" },
  { route: "tokens/[id]", method: "DELETE", url: () => "/api/tokens/no-such-token", as: A },
  { route: "tokens", method: "GET", url: () => "/api/tokens?scope=all", as: A, differs: ["lastUsedAt"] },
  {
    route: "tokens",
    method: "POST",
    url: () => "/api/tokens",
    as: "reviewer",
    body: () => ({ name: "contract" }),
    differs: ["id", "token", "prefix", "createdAt"],
  },
  { route: "trajectories/[id]/adjudication", method: "GET", url: (w) => `/api/trajectories/${w.theirs}/adjudication`, as: A },
  {
    route: "trajectories/[id]/adjudication",
    method: "POST",
    url: (w) => `/api/trajectories/${w.theirs}/adjudication`,
    as: A,
    body: () => ({}),
  },
  {
    route: "trajectories/[id]/annotation",
    method: "PUT",
    url: (w) => `/api/trajectories/${w.mine}/annotation`,
    as: "annotator",
    body: () => "{ not json",
  },
  {
    route: "trajectories/[id]/fast-lane",
    method: "POST",
    url: (w) => `/api/trajectories/${w.mine}/fast-lane`,
    as: "annotator",
    body: () => ({}),
  },
  {
    route: "trajectories/[id]/lease",
    method: "POST",
    url: (w) => `/api/trajectories/${w.mine}/lease`,
    as: "annotator",
    body: () => ({}),
    differs: ["leaseUntil"],
  },
  { route: "trajectories/[id]", method: "GET", url: (w) => `/api/trajectories/${w.mine}`, as: "annotator" },
  { route: "trajectories/[id]", method: "GET", url: (w) => `/api/trajectories/${encodeURIComponent(`${w.mine} x`)}`, as: A },
  { route: "trajectories/[id]/submit", method: "POST", url: (w) => `/api/trajectories/${w.mine}/submit`, as: "none", body: () => ({}) },
  { route: "trajectories", method: "GET", url: () => "/api/trajectories?sort=app", as: A },
  { route: "users/[id]/password", method: "POST", url: (w) => `/api/users/${w.users.reviewer}/password`, as: "none", body: () => ({}) },
  {
    route: "users/[id]",
    method: "PATCH",
    url: (w) => `/api/users/${w.users["other-annotator"]}`,
    as: A,
    body: () => ({ name: "Renamed" }),
  },
  { route: "users", method: "GET", url: () => "/api/users", as: A },
  { route: "users", method: "POST", url: () => "/api/users", as: A, body: () => ({ email: "not an address", role: "annotator" }) },
];

const PASSWORD = "password-123";
/** The headers compared as they are (absent on one side must be absent on the other). */
const COMPARED = ["content-type", "cache-control", "content-disposition", "location", "vary", "etag", "last-modified", "content-encoding"];

let routes: ApiRoute[];
let lane: LaneServer;
let world: World;
let tokens: Record<Who, string>;
let session: string;

beforeAll(async () => {
  process.env.STUDIO_SIGN_IN_PER_MINUTE = "1000";
  const seeded = await seedMatrixStudio();
  tokens = seeded.tokens;
  const { db } = seeded.ctx;
  const sha = (await db.screenshot.findFirstOrThrow()).sha256;
  const projectName = (await db.project.findUniqueOrThrow({ where: { id: seeded.ctx.project } })).name;
  world = { ...seeded.ctx, sha, projectName };
  routes = await loadApiRoutes(path.resolve("app"));
  lane = await startLaneServer(routes);
  session = await signIn(lane, "admin@example.com", PASSWORD);
});

afterAll(async () => {
  await lane.close();
  await world.db.$disconnect();
});

/** A route file's folder under app/api, with forward slashes. */
const folderOf = (r: ApiRoute) =>
  path
    .dirname(r.file)
    .split(path.sep)
    .join("/")
    .replace(/^api\//, "");

/**
 * The params Next hands a route for this path, worked out from the route's folder alone (not by the
 * lane's matcher): each [name] segment decoded, a [...name] the decoded rest.
 */
function nextParams(folder: string, pathname: string): Record<string, string | string[]> {
  const pattern = folder.split("/");
  const parts = pathname.replace(/^\/api\//, "").split("/");
  const params: Record<string, string | string[]> = {};
  pattern.forEach((seg, i) => {
    const all = /^\[\.\.\.(\w+)\]$/.exec(seg);
    const one = /^\[(\w+)\]$/.exec(seg);
    if (all) params[all[1]!] = parts.slice(i).map(decodeURIComponent);
    else if (one) params[one[1]!] = decodeURIComponent(parts[i]!);
    else expect(parts[i], `${pathname} under ${folder}`).toBe(seg);
  });
  return params;
}

function headersOf(c: Case): Record<string, string> {
  const h: Record<string, string> = {};
  if (c.as === "session") h.cookie = session;
  else if (c.as !== "none") h.authorization = `Bearer ${tokens[c.as]}`;
  if (c.body) {
    h["content-type"] = "application/json";
    h.origin = lane.base;
  }
  return h;
}

/** The same request the way Next calls the route: a web Request with the x-forwarded-* Next adds, and the params. */
async function viaNext(c: Case, urlPath: string, headers: Record<string, string>, body: string | undefined): Promise<Response> {
  const route = routes.find((r) => folderOf(r) === c.route)!;
  const handler = route.handlers.get(c.method)!;
  const host = new URL(lane.base).host;
  const forwarded = {
    "x-forwarded-host": host,
    "x-forwarded-port": host.split(":")[1]!,
    "x-forwarded-proto": "http",
    "x-forwarded-for": "127.0.0.1",
  };
  const req = new Request(`${lane.base}${urlPath}`, { method: c.method, headers: { host, ...headers, ...forwarded }, body });
  return handler(req, { params: Promise.resolve(nextParams(c.route, urlPath.split("?")[0]!)) });
}

/** A JSON body with the named fields' values replaced (wherever they occur), as text; any other body as it is. */
function normalised(bytes: Buffer, contentType: string | null, fields: readonly string[]): string | Buffer {
  if (fields.length === 0 || !contentType?.startsWith("application/json")) return bytes;
  return JSON.stringify(JSON.parse(bytes.toString("utf8")), (key, value: unknown) =>
    fields.includes(key) && value !== null ? "<differs>" : value,
  );
}

function expectSameAnswer(label: string, lane: RawAnswer, next: Response, nextBytes: Buffer, differs: readonly string[]) {
  expect(lane.status, `${label}: status`).toBe(next.status);
  for (const key of COMPARED) expect(lane.headers[key], `${label}: ${key}`).toBe(next.headers.get(key) ?? undefined);
  for (const { key, value } of SECURITY_HEADERS) {
    expect(lane.headers[key.toLowerCase()], `${label}: ${key}`).toBe(next.headers.get(key) ?? value);
  }
  const cookieNames = (cookies: readonly string[]) => cookies.map((c) => c.split("=")[0]);
  expect(cookieNames(lane.headers["set-cookie"] ?? []), `${label}: set-cookie names`).toEqual(cookieNames(next.headers.getSetCookie()));
  if (lane.headers["content-length"] !== undefined) expect(Number(lane.headers["content-length"]), label).toBe(lane.bytes.length);
  const type = next.headers.get("content-type");
  expect(normalised(lane.bytes, type, differs), `${label}: body`).toEqual(normalised(nextBytes, type, differs));
}

describe("the API lane answers what Next would, route by route", () => {
  it("has a case for every method of every route file under app/api (a new route must join)", () => {
    const onDisk = routes.flatMap((r) => [...r.handlers.keys()].map((m) => `${m} ${folderOf(r)}`));
    expect(onDisk.length).toBeGreaterThan(80);
    expect(onDisk.filter((x) => !CASES.some((c) => `${c.method} ${c.route}` === x))).toEqual([]);
    expect(CASES.map((c) => `${c.method} ${c.route}`).filter((x) => !onDisk.includes(x))).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.method} ${c.route} (${c.as === "none" ? "no credentials" : c.as})`, async () => {
      const urlPath = c.url(world);
      const hit = matchApiRoute(routes, urlPath.split("?")[0]!);
      expect(hit && folderOf(hit.route), urlPath).toBe(c.route);
      expect(hit!.params, urlPath).toEqual(nextParams(c.route, urlPath.split("?")[0]!));
      const headers = headersOf(c);
      const raw = c.body?.(world);
      const body = raw === undefined ? undefined : typeof raw === "string" ? raw : JSON.stringify(raw);
      const viaLane = await lane.send(c.method, urlPath, headers, body);
      const next = await viaNext(c, urlPath, headers, body);
      const nextBytes = Buffer.from(await next.arrayBuffer());
      expectSameAnswer(`${c.method} ${urlPath}`, viaLane, next, nextBytes, c.differs ?? []);
    });
  }
});
