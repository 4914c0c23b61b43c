import type { z } from "zod";
import { mayAttempt, type Action, type Actor } from "@/lib/domain/permissions";
import { discardBody } from "./body";
import { appError, isFromStore } from "../errors";
import { actorLocale, assertSameOrigin, errorResponse, readJson, requestLocale } from "./respond";
import { authorize, requireActor } from "../people";
import { refuseNul } from "./nul";
import { env } from "../env";

/**
 * What a route needs: an action from the permission table (the caller's role must be able to do
 * it, on their own work where the action depends on a trajectory; the use case then checks the
 * particular record), "signed-in" (anyone with a session or an API token), or "public".
 */
export type Permission = Action | "signed-in" | "public";

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.input<S> : undefined;
type In<S> = S extends Schema ? z.output<S> : undefined;

export type RouteSpec<P extends Permission, Params, Query, Body, Output extends Schema | "raw"> = {
  permission: P;
  /** The dynamic segments of the path ([id], [sha]...). */
  params?: Params;
  /** The query string; an empty field (`?app=`) means "no filter" and is left out before parsing. */
  query?: Query;
  /** The JSON body: malformed JSON answers 400, an oversize body 413, a body the schema refuses 422. An empty body reads as {}. */
  body?: Body;
  /** The answer's schema (checked before it is sent: a drift is our bug, a logged 500), or "raw" for a handler that builds its own Response. */
  output: Output;
  /** The status of a successful JSON answer (200 unless given). */
  status?: number;
  handler: (input: {
    actor: P extends "public" ? null : Actor;
    params: In<Params>;
    query: In<Query>;
    body: In<Body>;
    req: Request;
  }) => Promise<Output extends Schema ? Out<Output> : Response>;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * What a route answers, before it is a web Response: a JSON answer as its text (the API lane,
 * server/api-lane.ts, writes it to the socket as it is), or a Response (raw routes, errors).
 */
export type Answer = { status: number; headers: [string, string][]; json: string } | { response: Response };

/**
 * A route handler as Next calls it, carrying what it declared (the route-shape test reads these),
 * and `answer`, the same handling without the Response around a JSON answer (for the API lane).
 */
export type RouteHandler = ((req: Request, ctx: RouteContext) => Promise<Response>) & {
  readonly permission: Permission;
  readonly readsBody: boolean;
  /** The schemas it parses with (tests walk them to send each declared field). */
  readonly schemas: { readonly params?: Schema; readonly query?: Schema; readonly body?: Schema };
  readonly answer: (req: Request, ctx: RouteContext) => Promise<Answer>;
};

/** An answer as a web Response (what Next gets). */
export function responseOf(a: Answer): Response {
  if ("response" in a) return a.response;
  const headers = new Headers(a.headers);
  headers.set("content-type", "application/json");
  return new Response(a.json, { status: a.status, headers });
}

/**
 * STUDIO_SERVER_TIMING=1: every API answer carries a Server-Timing header with where its time went
 * (auth: who asks; input: params, query, body; handler: the use case; check: the output schema;
 * json: serialisation). Off by default (it tells a caller how long the session lookup took); the
 * load bench (bench/load.ts) turns it on to report per-stage timings.
 */
const SERVER_TIMING = env().STUDIO_SERVER_TIMING === true;

/** Statuses whose answer has no body (a web Response refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The path's params, or 404: a path whose id cannot be one (too long, a NUL from `%00`) names no
 * record, so it is answered as one that does not exist, before any database sees the value.
 */
function parseParams<S extends Schema>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw appError("not_found", "error.pathParam", { field: issue?.path.join(".") || "path", problem: issue?.message ?? "is not valid" });
}

const withoutEmpty = (params: URLSearchParams) => Object.fromEntries([...params].filter(([, v]) => v.trim() !== ""));

/**
 * The one way into the API: authenticates (401), refuses cross-site mutations and callers whose
 * role lacks the declared permission (403), parses params, query and body with the given zod
 * schemas, runs the handler and checks its answer against `output`. Every error goes through
 * errorResponse, the one mapping from thrown errors to HTTP answers.
 */
export function route<
  P extends Permission,
  Params extends Schema | undefined = undefined,
  Query extends Schema | undefined = undefined,
  Body extends Schema | undefined = undefined,
  Output extends Schema | "raw" = "raw",
>(spec: RouteSpec<P, Params, Query, Body, Output>): RouteHandler {
  if (spec.output !== "raw" && spec.status !== undefined && NULL_BODY_STATUSES.has(spec.status))
    throw new Error(`route(): a ${spec.status} answer has no body, so it cannot carry a JSON output; use output: "raw"`);
  const answer = async (req: Request, ctx: RouteContext): Promise<Answer> => {
    let actor: Actor | null = null;
    const marks: [string, number][] = [];
    let last = SERVER_TIMING ? performance.now() : 0;
    const mark = (stage: string) => {
      if (!SERVER_TIMING) return;
      const now = performance.now();
      marks.push([stage, now - last]);
      last = now;
    };
    const timing = () => marks.map(([n, d]) => `${n};dur=${d.toFixed(2)}`).join(", ");
    const timed = (res: Response): Answer => {
      if (SERVER_TIMING && marks.length > 0) res.headers.set("server-timing", timing());
      return { response: res };
    };
    try {
      if (spec.permission !== "public") actor = await requireActor(req.headers);
      mark("auth");
      if (actor) {
        assertSameOrigin(req);
        if (spec.permission !== "signed-in" && !mayAttempt(actor, spec.permission as Action)) authorize(actor, spec.permission as Action);
      }
      const params = spec.params ? parseParams(spec.params, await ctx.params) : undefined;
      const query = spec.query ? spec.query.parse(refuseNul(withoutEmpty(new URL(req.url).searchParams))) : undefined;
      const body = spec.body ? spec.body.parse(refuseNul((await readJson(req, { optional: true })) ?? {})) : undefined;
      mark("input");
      const result = await spec.handler({ actor, params, query, body, req } as Parameters<typeof spec.handler>[0]);
      mark("handler");
      if (spec.output === "raw") {
        await discardBody(req);
        return timed(result as Response);
      }
      // What this very schema just produced from stored data (fromStore) parses to itself: not parsed twice.
      if (!isFromStore(result, spec.output)) {
        const checked = spec.output.safeParse(result);
        if (!checked.success) {
          throw new Error(
            `${req.method} ${new URL(req.url).pathname}: the answer does not match its declared schema: ${checked.error.message}`,
          );
        }
      }
      mark("check");
      // The value as the handler built it (dates serialise as ISO text); the schema only vouches for it.
      const text = JSON.stringify(result) as string | undefined;
      if (text === undefined) throw new Error(`${req.method} ${new URL(req.url).pathname}: the answer is not JSON (${typeof result})`);
      mark("json");
      await discardBody(req);
      return { status: spec.status ?? 200, headers: SERVER_TIMING ? [["server-timing", timing()]] : [], json: text };
    } catch (e) {
      // A body refused unread (401, 404, 413 ...) is drained first, so the answer reaches a client still sending it.
      await discardBody(req);
      // In the person's language once we know who asks; before that, in the browser's.
      return timed(errorResponse(e, actor ? actorLocale(actor) : requestLocale(req)));
    }
  };
  const handler = async (req: Request, ctx: RouteContext): Promise<Response> => responseOf(await answer(req, ctx));
  return Object.assign(handler, {
    permission: spec.permission,
    readsBody: spec.body !== undefined,
    schemas: { params: spec.params, query: spec.query, body: spec.body },
    answer,
  });
}
