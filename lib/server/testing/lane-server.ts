// The API lane over real HTTP, for tests: a Node server with the lane's listener (server/api-lane.ts) in
// front of a stand-in for Next (a handler that answers 299, so a test sees which side answered), and a
// raw HTTP client that sends exactly the headers it is given (fetch would add and normalise some).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiLaneListener, type ApiRoute } from "@/server/api-lane";

/** What came back: the status, the headers as Node parsed them, the body as text and as bytes. */
export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string; bytes: Buffer };

export type LaneServer = {
  /** http://127.0.0.1:<port> */
  base: string;
  send: (method: string, urlPath: string, headers?: Record<string, string>, body?: string | Buffer) => Promise<RawAnswer>;
  close: () => Promise<void>;
};

/** The status the stand-in for Next answers with. */
export const NEXT_STAND_IN_STATUS = 299;

/**
 * Serve `routes` through the lane on a free local port. Sets BETTER_AUTH_URL to the server's origin, so
 * better-auth accepts a sign-in sent from it.
 */
export async function startLaneServer(routes: readonly ApiRoute[]): Promise<LaneServer> {
  let server: Server | undefined = undefined;
  const portOf = () => (server!.address() as AddressInfo).port;
  server = createServer((req, res) =>
    apiLaneListener(
      routes,
      (_req, fallbackRes) => {
        fallbackRes.statusCode = NEXT_STAND_IN_STATUS;
        fallbackRes.end("next");
      },
      { port: portOf(), hostname: "127.0.0.1" },
    )(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${portOf()}`;
  process.env.BETTER_AUTH_URL = base;
  const send: LaneServer["send"] = (method, urlPath, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${urlPath}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8"), bytes });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  const close = () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  return { base, send, close };
}

/** Sign in through the lane (better-auth's email sign-in); the session cookie to send back. */
export async function signIn(lane: LaneServer, email: string, password: string): Promise<string> {
  const body = JSON.stringify({ email, password });
  const res = await lane.send("POST", "/api/auth/sign-in/email", { "content-type": "application/json", origin: lane.base }, body);
  const cookies = res.headers["set-cookie"];
  if (res.status !== 200 || !cookies?.length) throw new Error(`sign-in as ${email} answered ${res.status}: ${res.body}`);
  return cookies.map((c) => c.split(";")[0]).join("; ");
}
