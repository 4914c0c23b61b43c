// A client that sends an over-limit body the way a browser does: the request line and headers, then the
// body in 64 KB writes as fast as the socket takes them, reading the answer whenever it comes. What it
// reports is what a person would see: the status and error code, or the network error (EPIPE, ECONNRESET)
// that replaces the answer when the server closes the connection before the body is sent.
import { Agent, request } from "node:http";

const STALL_MS = 15_000;

export type OversizeOutcome = { status: number; code?: string } | { networkError: string };

/** The outcome, and how many body bytes the socket took before it ended (the server's kernel buffers included). */
export type OversizeResult = { outcome: OversizeOutcome; sent: number };

/** PUT/POST `bytes` of JSON-looking body to `url`; `chunked` leaves out the Content-Length. */
export function sendOversize(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; bytes: number; chunked?: boolean },
): Promise<OversizeResult> {
  return new Promise((resolve) => {
    let outcome: OversizeOutcome | undefined;
    let at = 0;
    let closed = false;
    // Done once the answer (or the error) is in and the request is over: `sent` then counts all it wrote.
    const finish = () => {
      if (!outcome || !closed) return;
      clearTimeout(timer);
      agent.destroy();
      resolve({ outcome, sent: at });
    };
    // A server that answered but stopped reading leaves the client's upload hanging: after STALL_MS that
    // is the outcome, as a person would see it (a request that never ends).
    const timer = setTimeout(() => {
      outcome = { networkError: "STALLED" };
      closed = true;
      req.destroy();
      finish();
    }, STALL_MS);
    const settle = (o: OversizeOutcome) => {
      outcome ??= o;
      finish();
    };
    const body = Buffer.alloc(opts.bytes, 0x20);
    body.write('{"thought":"', 0);
    // A keep-alive connection of its own, as a browser's: the server may not lean on closing it to end
    // the exchange, and a body it stops reading stalls the client.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(url, {
      agent,
      method: opts.method ?? "PUT",
      headers: {
        "content-type": "application/json",
        ...(opts.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(body.length) }),
        ...opts.headers,
      },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: { code?: string } }).error?.code;
        } catch {
          // not JSON: the status says enough
        }
        settle({ status: res.statusCode ?? 0, ...(code ? { code } : {}) });
      });
      res.on("error", (e: NodeJS.ErrnoException) => settle({ networkError: e.code ?? e.message }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => settle({ networkError: e.code ?? e.message }));
    req.on("close", () => {
      closed = true;
      finish();
    });
    const pump = () => {
      while (at < body.length && !req.destroyed) {
        const piece = body.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}
