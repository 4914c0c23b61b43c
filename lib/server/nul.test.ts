// A NUL character (`\0` in JSON, `%00` in a query) in any field of any route answers 422 naming the
// field, never 500. PostgreSQL refuses NUL in text (SQLite stores it), so this runs on a private
// PostgreSQL server. The routes and their fields come from the route files and the schemas each route
// declares (every query parameter, every string of the body, nested ones included), not from a list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { REFUSED_CHARACTER_MESSAGE } from "@/lib/domain/limits";
import { localize } from "@/lib/i18n";
import type { RouteHandler as Declared } from "./http/route";
import { hasPostgres, startPostgres } from "./testing/postgres";
import { loadRoute, routeFiles, routeUrl, signUp, type Method } from "./testing/route-calls";

type Def = { type: string } & Record<string, unknown>;
const defOf = (s: unknown) => (s as { _zod: { def: Def } })._zod.def;
const NUL = "a\0b";

/** Each string a schema declares, as [its field path, the smallest JSON value holding a NUL there]. */
function nulFields(schema: unknown, seen = new Set<unknown>()): [string[], unknown][] {
  if (seen.has(schema)) return [];
  const def = defOf(schema);
  const inner = (s: unknown) => nulFields(s, new Set([...seen, schema]));
  switch (def.type) {
    case "string":
    case "enum":
    case "template_literal":
      return [[[], NUL]];
    case "literal":
      return (def.values as unknown[]).some((v) => typeof v === "string") ? [[[], NUL]] : [];
    case "object":
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, s]) =>
        inner(s).map(([p, v]): [string[], unknown] => [[key, ...p], { [key]: v }]),
      );
    case "array":
      return inner(def.element).map(([p, v]): [string[], unknown] => [["0", ...p], [v]]);
    case "record":
      return [
        [[NUL.replace("\0", "\\0")], { [NUL]: null }],
        ...inner(def.valueType).map(([p, v]): [string[], unknown] => [["k", ...p], { k: v }]),
      ];
    case "union":
      return (def.options as unknown[]).flatMap(inner);
    case "intersection":
      return [...inner(def.left), ...inner(def.right)];
    case "pipe":
      return inner(def.in);
    case "lazy":
      return inner((def.getter as () => unknown)());
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner(def.innerType);
    default:
      return [];
  }
}

/** The query parameters a schema declares. */
const queryKeys = (schema: unknown): string[] => {
  const def = defOf(schema);
  if (def.type === "object") return Object.keys(def.shape as object);
  if (def.type === "pipe") return queryKeys(def.in);
  return [];
};

/** A value each path param's schema accepts (the record need not exist: the NUL must be refused first). */
function paramsFor(route: string, schema: z.ZodType | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of route.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)) {
    const name = m[1]!;
    params[name] = name === "sha" ? "a".repeat(64) : `test-${name}`;
  }
  if (!schema || schema.safeParse(params).success) return params;
  for (const [name, s] of Object.entries(defOf(schema).shape as Record<string, unknown>)) {
    const d = defOf(s);
    if (d.type === "enum") params[name] = Object.values(d.entries as Record<string, string>)[0]!;
  }
  return params;
}

const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

describe.skipIf(!hasPostgres)("NUL in any field of any route, on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  const tokens = {} as Record<"admin", string>;
  const saved = { url: process.env.DATABASE_URL, data: process.env.STUDIO_DATA_DIR };

  beforeAll(async () => {
    server = startPostgres();
    const { db } = await server.freshDb();
    await signUp(db, [["admin", "admin"]], tokens);
  }, 120_000);

  afterAll(() => {
    server?.stop();
    process.env.DATABASE_URL = saved.url;
    process.env.STUDIO_DATA_DIR = saved.data;
  });

  async function send(route: string, method: Method, params: Record<string, string>, query: string, body?: unknown) {
    const handler = (await loadRoute(route))[method]!;
    const res = await handler(
      new Request(routeUrl(route, params, query), {
        method,
        headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      { params: Promise.resolve(params) },
    );
    return { status: res.status, body: (await res.json().catch(() => null)) as { error?: { message: string; issues?: unknown } } | null };
  }

  const refusal = (field: string) => ({
    status: 422,
    body: {
      error: {
        code: "unprocessable",
        message: localize({ key: "error.nulCharacter", vars: { field } }, "en"),
        issues: [{ path: field, message: REFUSED_CHARACTER_MESSAGE }],
      },
    },
  });

  it("answers 422 naming the field for every query parameter and body string each route declares", async () => {
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    let fields = 0;
    for (const route of routeFiles()) {
      const mod = await loadRoute(route);
      for (const method of METHODS) {
        const handler = mod[method] as unknown as Declared | undefined;
        if (!handler) continue;
        expect(handler.schemas, `${method} /api/${route} is a route() handler`).toBeDefined();
        const { params: paramSchema, query, body } = handler.schemas;
        const params = paramsFor(route, paramSchema);
        for (const key of query ? queryKeys(query) : []) {
          const name = `${method} /api/${route}?${key}`;
          answers[name] = await send(route, method, params, `?${key}=a%00b`);
          expected[name] = refusal(key);
          fields++;
        }
        for (const [at, value] of body ? nulFields(body) : []) {
          const field = at.join(".");
          const name = `${method} /api/${route} body ${field}`;
          answers[name] = await send(route, method, params, "", value);
          expected[name] = refusal(field);
          fields++;
        }
      }
    }
    expect(answers).toEqual(expected);
    // The walk reached the fields the fault-injection round found answering 500.
    expect(Object.keys(answers)).toEqual(
      expect.arrayContaining([
        "POST /api/eval/runs body set",
        "GET /api/eval/compare?a",
        "GET /api/eval/runs/[id]/failures?app",
        "GET /api/eval/runs/[id]/failures?action",
      ]),
    );
    expect(fields).toBeGreaterThan(40);
  }, 120_000);

  it("refuses them in a request that is otherwise valid, where PostgreSQL used to answer 500", async () => {
    expect(await send("eval/runs", "POST", {}, "", { set: "s\0et", endpoint: "e" })).toEqual(refusal("set"));
    expect(await send("eval/compare", "GET", {}, "?a=x%00&b=y")).toEqual(refusal("a"));
    expect(await send("eval/runs/[id]/failures", "GET", { id: "run-1" }, "?app=Gm%00ail")).toEqual(refusal("app"));
    expect(await send("eval/runs/[id]/failures", "GET", { id: "run-1" }, "?action=cl%00ick")).toEqual(refusal("action"));
    // The sign-in, better-auth's route behind the studio's door, declares no schema of ours: its fields are refused too.
    const signIn = (await loadRoute("auth/[...all]")).POST!;
    const res = await signIn(
      new Request("http://127.0.0.1:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000" },
        body: JSON.stringify({ email: "admin\0@example.com", password: "password-123" }),
      }),
      { params: Promise.resolve({ all: ["sign-in", "email"] }) as never },
    );
    expect({ status: res.status, body: await res.json() }).toEqual(refusal("email"));
    // Without the NUL the same requests reach the use case and are answered in its words.
    expect((await send("eval/compare", "GET", {}, "?a=x&b=y")).status).toBe(404);
  });
});
