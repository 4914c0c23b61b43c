// Issue 22: a 5 MB step save was answered 413 in one run and, in the next, the client saw a broken pipe
// (the server closed the connection while the body was still being sent), so a person saw a network error
// instead of the limit. Over real HTTP, 20 times in a row, through both ways a request reaches a route:
// the studio's API lane (server/api-lane.ts) and Next's own request plumbing (the NodeNextRequest,
// NextRequestAdapter and sendResponse that Next's compiled app-route template calls), each with the real
// app/api route handler and a fresh SQLite studio.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { NodeNextRequest, NodeNextResponse } from "next/dist/server/base-http/node";
import { NextRequestAdapter, signalFromNodeResponse } from "next/dist/server/web/spec-extension/adapters/next-request";
import { sendResponse } from "next/dist/server/send-response";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/domain/limits";
import { SYSTEM_ACTOR } from "@/lib/server/people/audit";
import type { Db } from "@/lib/server/db";
import { createUser } from "@/lib/server/people";
import { createToken } from "@/lib/server/people/tokens";
import { freshStudio } from "@/lib/server/testing/fixtures";
import { sendOversize } from "@/lib/server/testing/oversize-body";
import { apiLaneListener, loadApiRoutes, matchApiRoute, type ApiRoute } from "./api-lane";

let routes: ApiRoute[];
let prisma: Db;
let token: string;

/** A server answering /api/* the way Next's compiled app-route template does, with the route's own handler. */
function nextPlumbing(req: IncomingMessage, res: ServerResponse): void {
  const hit = matchApiRoute(routes, (req.url ?? "/").split("?")[0]!);
  const handler = hit?.route.handlers.get(req.method ?? "GET");
  if (!hit || !handler) {
    res.statusCode = 404;
    res.end();
    return;
  }
  const nodeNextReq = new NodeNextRequest(req);
  const nodeNextRes = new NodeNextResponse(res);
  (req as unknown as Record<symbol, unknown>)[Symbol.for("NextInternalRequestMeta")] = { initURL: `http://${req.headers.host}${req.url}` };
  const nextReq = NextRequestAdapter.fromNodeNextRequest(nodeNextReq, signalFromNodeResponse(res));
  void handler(nextReq, { params: Promise.resolve(hit.params) }).then((response) => sendResponse(nodeNextReq, nodeNextRes, response));
}

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; base: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const servers: Server[] = [];
beforeAll(async () => {
  ({ db: prisma } = await freshStudio());
  routes = await loadApiRoutes(path.resolve("app"));
  await createUser({ actor: SYSTEM_ACTOR, email: "ann@studio.local", role: "annotator", password: "oversize-password-1" }, prisma);
  token = (await createToken({ actor: SYSTEM_ACTOR, user: "ann@studio.local", name: "oversize" }, prisma)).token;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await prisma.$disconnect();
});

const lanes = {
  "the API lane": () => {
    let port = 0;
    const listener = (req: IncomingMessage, res: ServerResponse) =>
      apiLaneListener(routes, (_q, r) => r.end(), { port, hostname: "127.0.0.1" })(req, res);
    return listen(listener).then((l) => ((port = Number(new URL(l.base).port)), l));
  },
  "Next's request plumbing": () => listen(nextPlumbing),
};

describe.each(Object.keys(lanes) as (keyof typeof lanes)[])("an over-limit body through %s", (lane) => {
  let base: string;
  beforeAll(async () => {
    const l = await lanes[lane]();
    servers.push(l.server);
    base = l.base;
  });

  it("reaches the client as its 413, with or without a declared length, 20 times in a row", async () => {
    const headers = { authorization: `Bearer ${token}` };
    const outcomes = [];
    for (let i = 0; i < 20; i++) {
      const url = `${base}/api/steps/step-${i}/annotation`;
      outcomes.push((await sendOversize(url, { headers, bytes: 5 * 1024 ** 2 })).outcome);
      outcomes.push((await sendOversize(url, { headers, bytes: 5 * 1024 ** 2, chunked: true })).outcome);
    }
    expect(outcomes).toEqual(Array.from({ length: 40 }, () => ({ status: 413, code: "payload_too_large" })));
  });

  it("answers a request refused before its body is read (no credentials) the same way", async () => {
    const outcomes = [];
    for (let i = 0; i < 20; i++) outcomes.push((await sendOversize(`${base}/api/steps/x/annotation`, { bytes: 5 * 1024 ** 2 })).outcome);
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => ({ status: 401, code: "unauthorized" })));
  });

  it("stops reading a body past the drain bound and closes the connection", async () => {
    const buffers = kernelSocketBuffers();
    const bytes = LIMITS.drainBodyBytes + buffers + 64 * 1024 ** 2;
    const r = await sendOversize(`${base}/api/steps/x/annotation`, { headers: { authorization: `Bearer ${token}` }, bytes, chunked: true });
    // The server read no further than the bound (plus what the two kernels' socket buffers can hold), and the
    // client learnt the connection is over: the 413 if it arrived before the close, else the close itself.
    expect(r.sent).toBeLessThan(LIMITS.drainBodyBytes + buffers);
    expect(["413", "EPIPE", "ECONNRESET"]).toContain("status" in r.outcome ? String(r.outcome.status) : r.outcome.networkError);
  });
});

/**
 * The most a sender's and a receiver's kernel may buffer on one TCP connection: the largest receive buffer
 * autotuning may grow to (tcp_rmem's third value, 32 MB on some hosts) plus the largest send buffer, plus 1 MB of
 * slack; 16 MB where /proc does not say.
 */
function kernelSocketBuffers(): number {
  try {
    const max = (name: string) => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, "utf8").trim().split(/\s+/)[2]);
    const sum = max("tcp_rmem") + max("tcp_wmem");
    if (Number.isFinite(sum) && sum > 0) return sum + 1024 ** 2;
  } catch {
    // not Linux: the default below
  }
  return 16 * 1024 ** 2;
}
