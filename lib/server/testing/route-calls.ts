// Calling the app's route handlers in a test the way Next.js calls them: the route file is imported,
// the request carries a person's API token, and params arrive as a promise. One place for what the
// API-level tests (gold, overlap, adjudication, the route tables) used to write each for themselves.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import type { Role } from "@/lib/domain/permissions";
import type { Db } from "../db";
import { createUser } from "../people";
import { CLI_ACTOR } from "../people/audit";
import { createToken } from "../people/tokens";

export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export const API_DIR = path.resolve("app/api");

/** Every route under app/api as its folder path ("trajectories/[id]/submit"). */
export function routeFiles(dir = API_DIR, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name), prefix ? `${prefix}/${e.name}` : e.name) : e.name === "route.ts" ? [prefix] : [],
  );
}

/** A route file's exports, by method name. */
export async function loadRoute(route: string): Promise<Partial<Record<Method, RouteHandler>>> {
  return (await import(pathToFileURL(path.join(API_DIR, route, "route.ts")).href)) as Partial<Record<Method, RouteHandler>>;
}

/** The URL a route pattern stands for once its [params] are filled in. */
export function routeUrl(route: string, params: Record<string, string>, query = ""): string {
  return `http://127.0.0.1:3000/api/${route.replace(/\[(\w+)\]/g, (_m, k: string) => params[k] ?? k)}${query}`;
}

export interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  query?: string;
}

/** A caller that sends each request as `who`, with that person's token from `tokens`. */
export function apiAs<Who extends string>(tokens: Record<Who, string>) {
  return async (who: Who, method: Method, route: string, opts: CallOptions = {}): Promise<Response> => {
    const handler = (await loadRoute(route))[method];
    if (!handler) throw new Error(`${route} has no ${method}`);
    const params = opts.params ?? {};
    const req = new Request(routeUrl(route, params, opts.query), {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, ...(opts.body === undefined ? {} : { "content-type": "application/json" }) },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return handler(req, { params: Promise.resolve(params) });
  };
}

/** The JSON body of a 2xx answer; any other status fails the test with the body as its message. */
export async function ok<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
}

/** Make each person `<who>@example.com` with their role and fill `tokens` with an API token of theirs. */
export async function signUp<Who extends string>(
  db: Db,
  people: readonly (readonly [Who, Role])[],
  tokens: Record<Who, string>,
  tokenName = "test",
): Promise<void> {
  for (const [who, role] of people) {
    const { person } = await createUser({ actor: CLI_ACTOR, email: `${who}@example.com`, role, password: "password-123" }, db);
    tokens[who] = (await createToken({ actor: CLI_ACTOR, user: person.email, name: tokenName }, db)).token;
  }
}
