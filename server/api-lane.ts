// The API lane: the studio's own HTTP server answers /api/* by calling the very handlers of
// app/api/**/route.ts (the functions Next would call, built by route() with the same auth, permission,
// parsing and error mapping), and hands everything else to Next: pages, static files, HEAD and OPTIONS,
// a path with a trailing slash or odd encoding, a method a route does not export.
//
// Why: measured on 2 cores under 32 connections, Next's own request handling (router, request
// normalisation, web-stream plumbing) costs about 0.9 ms of CPU per request, /api/health included,
// while a trajectory read spends 0.7 ms in its handler. Serving the API here takes that cost off every
// API request; bench/load.ts measures both lanes in the same run (STUDIO_API_LANE=next turns this one off).
//
// What it keeps of Next's behaviour: the security headers of next.config.ts (one list, SECURITY_HEADERS),
// the x-forwarded-* request headers Next adds, Next's route precedence (a static segment before a
// [param], a [param] before a [...catch-all]), decoded params, and the handler's answer as it is.
import { readdir } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { pathToFileURL } from "node:url";
import { SECURITY_HEADERS } from "@/lib/domain/security-headers";
import { appError } from "@/lib/server/errors";
import { errorResponse, type Answer } from "@/lib/server/http";

type Params = Record<string, string | string[]>;
/**
 * A route's exported handler. One built by route() (lib/server/http/route.ts) also carries `answer`, which
 * leaves a JSON answer as text: the lane writes that straight to the socket instead of reading it back
 * out of a web Response.
 */
export type ApiHandler = ((req: Request, ctx: { params: Promise<Params> }) => Promise<Response>) & {
  answer?: (req: Request, ctx: { params: Promise<Params> }) => Promise<Answer>;
};

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string };

export type ApiRoute = {
  /** The route file, relative to the app folder (for messages). */
  file: string;
  segments: Segment[];
  handlers: ReadonlyMap<string, ApiHandler>;
};

/** The methods this lane serves; HEAD and OPTIONS stay with Next, which derives them. */
export const LANE_METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

function segmentOf(folder: string, file: string): Segment | null {
  if (folder.startsWith("(") && folder.endsWith(")")) return null; // a route group: not part of the path
  if (folder.startsWith("[[")) throw new Error(`${file}: optional catch-all segments (${folder}) are not served by the API lane`);
  if (folder.startsWith("[...") && folder.endsWith("]")) return { kind: "catchAll", name: folder.slice(4, -1) };
  if (folder.startsWith("[") && folder.endsWith("]")) return { kind: "param", name: folder.slice(1, -1) };
  return { kind: "static", value: folder };
}

const RANK = { static: 0, param: 1, catchAll: 2 } as const;

/** Next's order: at the first position where two routes differ, a static segment wins over a [param], which wins over a [...catch-all]. */
function precedence(a: ApiRoute, b: ApiRoute): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (!x || !y) return x ? 1 : -1;
    if (RANK[x.kind] !== RANK[y.kind]) return RANK[x.kind] - RANK[y.kind];
    if (x.kind === "static" && y.kind === "static" && x.value !== y.value) return x.value < y.value ? -1 : 1;
  }
  return 0;
}

async function routeFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await routeFiles(full)));
    else if (entry.name === "route.ts") found.push(full);
  }
  return found;
}

/** Every route under `appDir`/api, imported, in Next's matching order. */
export async function loadApiRoutes(appDir: string): Promise<ApiRoute[]> {
  const routes: ApiRoute[] = [];
  for (const full of await routeFiles(path.join(appDir, "api"))) {
    const file = path.relative(appDir, full);
    const folders = path.dirname(file).split(path.sep);
    const segments = folders.map((f) => segmentOf(f, file)).filter((s): s is Segment => s !== null);
    const mod = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
    const handlers = new Map<string, ApiHandler>();
    for (const method of LANE_METHODS) {
      const h = mod[method];
      if (typeof h === "function") handlers.set(method, h as ApiHandler);
    }
    routes.push({ file, segments, handlers });
  }
  return routes.sort(precedence);
}

/**
 * The route and params for a request path (the part before `?`), or null where Next should answer:
 * not under /api, an empty segment (a trailing slash, `//`), a static segment that is percent-encoded,
 * or a param that does not decode.
 */
export function matchApiRoute(routes: readonly ApiRoute[], pathname: string): { route: ApiRoute; params: Params } | null {
  if (!pathname.startsWith("/api/")) return null;
  const parts = pathname.slice(1).split("/");
  if (parts.some((p) => p === "")) return null;
  for (const route of routes) {
    const params = matchSegments(route.segments, parts);
    if (params) return { route, params };
  }
  return null;
}

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Params | null {
  const params: Params = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === "catchAll") {
      const rest = parts.slice(i);
      if (rest.length === 0) return null;
      const decoded = rest.map(decode);
      if (decoded.some((d) => d === null)) return null;
      params[seg.name] = decoded as string[];
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.kind === "static") {
      if (part !== seg.value) return null;
    } else {
      const decoded = decode(part);
      if (decoded === null) return null;
      params[seg.name] = decoded;
    }
  }
  return parts.length === segments.length ? params : null;
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export type LaneOptions = { port: number; hostname: string };

/**
 * The server's request listener: an /api request whose route exports its method goes to that handler,
 * anything else to `fallback` (Next's request handler in server/main.ts).
 */
export function apiLaneListener(
  routes: readonly ApiRoute[],
  fallback: (req: IncomingMessage, res: ServerResponse) => unknown,
  options: LaneOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = req.method ?? "GET";
    if (routes.length > 0 && LANE_METHODS.has(method)) {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const hit = matchApiRoute(routes, q === -1 ? url : url.slice(0, q));
      const handler = hit?.route.handlers.get(method);
      if (hit && handler) {
        serveApi(handler, hit.params, req, res, options).catch((e: unknown) => {
          // Writing the answer failed (its body stream broke): log it, and end the exchange rather than the process.
          console.error(`${method} ${url}: the API lane could not send the answer`, e);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.end();
          } else res.destroy();
        });
        return;
      }
    }
    void fallback(req, res);
  };
}

/**
 * Answer one request with `handler`, as Next would: the request as a web Request (headers as sent, plus
 * the x-forwarded-* Next adds; the body streamed, bounded by the handler's own limits; aborted when the
 * client goes away), the answer's status, headers and body written back with the security headers first
 * (a route() answer's JSON text as it is).
 */
export async function serveApi(
  handler: ApiHandler,
  params: Params,
  req: IncomingMessage,
  res: ServerResponse,
  options: LaneOptions,
): Promise<void> {
  // A request with a body is aborted when the client goes away, so an upload stops being read. (No
  // handler watches a bodiless request's signal; a download stops when its socket closes.)
  let signal: AbortSignal | undefined;
  if (hasBody(req)) {
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    signal = aborted.signal;
  }
  let answer: Answer;
  try {
    const request = toRequest(req, options, signal);
    const ctx = { params: Promise.resolve(params) };
    answer = handler.answer ? await handler.answer(request, ctx) : { response: await handler(request, ctx) };
  } catch (e) {
    // route() maps every error a handler throws; what reaches here is a request Node accepted but a web
    // Request cannot carry (a malformed Host header), or a bug in this lane.
    console.error(`${req.method} ${req.url}: the API lane could not serve it`, e);
    answer = { response: errorResponse(appError("bad_request", "error.requestUnreadable", { detail: (e as Error).message })) };
  }
  if ("response" in answer) await writeAnswer(answer.response, req, res);
  else writeJson(answer, req, res);
}

/** A JSON answer from its text: one write, with its length. */
function writeJson(answer: Extract<Answer, { json: string }>, req: IncomingMessage, res: ServerResponse): void {
  beginAnswer(answer.status, req, res);
  for (const [key, value] of answer.headers) res.setHeader(key, value);
  res.setHeader("content-type", "application/json");
  res.setHeader("content-length", Buffer.byteLength(answer.json));
  res.end(answer.json);
}

const hasBody = (req: IncomingMessage) => req.method !== "GET" && req.method !== "HEAD";

function toRequest(req: IncomingMessage, { port, hostname }: LaneOptions, signal: AbortSignal | undefined): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const host = req.headers.host ?? `${hostname}:${port}`;
  const proto = req.headers["x-forwarded-proto"] === "https" ? "https" : "http";
  // What Next adds to every request before a handler sees it (base-server.js), so handlers read the same.
  if (!headers.has("x-forwarded-host")) headers.set("x-forwarded-host", host);
  if (!headers.has("x-forwarded-port")) headers.set("x-forwarded-port", String(port));
  if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", proto);
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
  return new Request(`${proto}://${host}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(signal ? { signal } : {}),
    ...(hasBody(req) ? { body: bodyOf(req), duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * The request body as a web stream, read as the handler pulls it. A handler that stops reading (route()
 * drains an unwanted body up to LIMITS.drainBodyBytes first, lib/server/http/body.ts) cancels it: the
 * connection is then closed once the answer is sent, so no one reads on without bound. (Readable.toWeb
 * would destroy the socket at once instead, and the client would see a reset rather than the answer.)
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          try {
            controller.close();
          } catch {
            // already cancelled by the handler
          }
        });
        req.once("error", (e) => {
          try {
            controller.error(e);
          } catch {
            // already cancelled by the handler
          }
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Past the drain bound: read no more of it (its answer closes the connection).
        abandoned.add(req);
        req.removeAllListeners("data");
        req.pause();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

/** Requests whose body the handler gave up on before its end: their connection closes after the answer. */
const abandoned = new WeakSet<IncomingMessage>();

/**
 * What every answer starts with: the status, the security headers, and `Connection: close` when the body
 * was not read to its end (Node reads no more of a request once its answer is sent, so a kept-alive
 * connection would stall the client's upload until it timed out; closed, the client has its answer).
 */
function beginAnswer(status: number, req: IncomingMessage, res: ServerResponse): void {
  if (!req.complete || abandoned.has(req)) res.setHeader("connection", "close");
  res.statusCode = status;
  for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
}

async function writeAnswer(answer: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  beginAnswer(answer.status, req, res);
  answer.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!answer.body) {
    res.end();
    return;
  }
  // JSON answers are small and whole: one write with its length. Anything else (downloads) streams.
  if ((answer.headers.get("content-type") ?? "").startsWith("application/json")) {
    const body = Buffer.from(await answer.arrayBuffer());
    res.setHeader("content-length", body.length);
    res.end(body);
    return;
  }
  try {
    await pipeline(Readable.fromWeb(answer.body as WebReadableStream), res);
  } catch (e) {
    // The client went away mid-download, or the handler's stream failed: nothing more can be sent.
    if (!res.destroyed) res.destroy(e as Error);
  }
}
