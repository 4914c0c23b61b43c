// A small OpenAI-compatible chat server for tests: real HTTP, the real /v1/chat/completions protocol
// (non-streaming JSON, images as data: URLs in image_url parts). It records every request it was
// sent and can be told to answer slowly or with an error, to send its headers and then stall the body
// ("stall-body"), to answer 401 quoting the Authorization header it got ("echo-auth", as some gateways
// do), or to answer 404 with an HTML page ("html"). Nothing in the studio knows it is fake.
//
// In a test: `const server = await startFakeModelServer()`; as a process (browser tests):
// `tsx lib/server/testing/fake-model-server.ts --port 3299`, controlled over HTTP:
// POST /_control {"mode":"ok"|"slow"|"fail","delayMs":n}, GET /_requests, DELETE /_requests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
export type ChatMessage = { role: string; content: string | ChatPart[] };
export type ChatRequest = { model: string; messages: ChatMessage[]; max_tokens?: number; temperature?: number; [k: string]: unknown };
/**
 * One request as received; `closedEarly` turns true when the client closed it before the answer was complete, and
 * `isEnded` when it is over either way (answered or closed): a test waits on it instead of sleeping out a slow answer.
 */
export type RecordedRequest = {
  path: string;
  authorization: string | null;
  body: ChatRequest;
  at: number;
  closedEarly: boolean;
  isEnded: boolean;
};
export type FakeMode = { mode: "ok" | "slow" | "fail" | "stall-body" | "echo-auth" | "html"; delayMs?: number };

export type FakeModelServer = {
  url: string;
  /** base URL as the studio takes it: http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  setMode: (m: FakeMode) => void;
  /** Replace the answer for chat requests (default: defaultReply). */
  setResponder: (fn: (req: ChatRequest) => string) => void;
  close: () => Promise<void>;
};

/** Every text part of a request, joined: what the responder reads to decide what was asked. */
export function requestText(req: ChatRequest): string {
  return req.messages
    .flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.flatMap((p) => (p.type === "text" ? [p.text] : []))))
    .join("\n");
}

/** Image URLs of a request, in order. */
export function requestImages(req: ChatRequest): string[] {
  return req.messages.flatMap((m) =>
    typeof m.content === "string" ? [] : m.content.flatMap((p) => (p.type === "image_url" ? [p.image_url.url] : [])),
  );
}

/** A plausible answer for each studio prompt, recognised by what it asks for. */
export function defaultReply(req: ChatRequest): string {
  const text = requestText(req);
  if (/"next_action"/.test(text)) {
    return '```json\n{"state": "The settings page is open.", "next_action": "Tap the Wi-Fi entry.", "purpose": "To turn Wi-Fi on."}\n```';
  }
  if (/"completed"/.test(text) && /"consistent"/.test(text))
    return '{"completed": true, "consistent": true, "reason": "The last screen shows the task done."}';
  if (/mobile_use/.test(text)) {
    return '<think>The Wi-Fi entry is near the top.</think>\n<action>Tap the Wi-Fi entry.</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 600]}}\n</tool_call>';
  }
  return "pong";
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeModelServer(opts: { port?: number; host?: string } = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  let mode: FakeMode = { mode: "ok" };
  let responder = defaultReply;
  const sockets = new Set<Socket>();

  // Each request is answered by serve(), which catches what it throws (a 400), so it never rejects.
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? "/", "http://x");
      const raw = await readBody(req);
      if (url.pathname === "/_control" && req.method === "POST") {
        mode = JSON.parse(raw) as FakeMode;
        return send(200, { mode });
      }
      if (url.pathname === "/_requests") {
        if (req.method === "DELETE") requests.length = 0;
        return send(200, { requests });
      }
      if (url.pathname !== "/v1/chat/completions" || req.method !== "POST")
        return send(404, { error: { message: `no route ${req.method} ${url.pathname}`, type: "invalid_request_error" } });
      const body = JSON.parse(raw) as ChatRequest;
      const recorded: RecordedRequest = {
        path: url.pathname,
        authorization: req.headers.authorization ?? null,
        body,
        at: Date.now(),
        closedEarly: false,
        isEnded: false,
      };
      requests.push(recorded);
      res.once("close", () => {
        if (!res.writableFinished) recorded.closedEarly = true;
        recorded.isEnded = true;
      });
      if (mode.mode === "slow") await sleep(mode.delayMs ?? 30_000);
      if (mode.mode === "fail") return send(500, { error: { message: "The model server broke (fake 500).", type: "server_error" } });
      if (mode.mode === "echo-auth")
        return send(401, {
          error: { message: `Incorrect API key provided. You sent: Authorization: ${req.headers.authorization ?? ""}`, type: "auth_error" },
        });
      if (mode.mode === "html") {
        res.writeHead(404, { "content-type": "text/html" });
        res.end("<html><body><h1>Internal admin panel</h1><p>secret-internal-page-body</p></body></html>");
        return;
      }
      if (mode.mode === "stall-body") {
        // Headers and the start of a JSON body, then nothing more until the client gives up.
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"id": "chatcmpl-stalled", "object": "chat.completion", ');
        return;
      }
      if (!Array.isArray(body.messages) || body.messages.length === 0)
        return send(400, { error: { message: "messages: required", type: "invalid_request_error" } });
      const content = responder(body);
      const promptTokens = Math.ceil(requestText(body).length / 4) + requestImages(body).length * 1_000;
      const completionTokens = Math.ceil(content.length / 4);
      send(200, {
        id: `chatcmpl-fake-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    } catch (e) {
      send(400, { error: { message: `bad request: ${(e as Error).message}`, type: "invalid_request_error" } });
    }
  };
  const server: Server = createServer((req, res) => void serve(req, res));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    setMode: (m) => void (mode = m),
    setResponder: (fn) => void (responder = fn),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// Run as a process: tsx lib/server/testing/fake-model-server.ts --port <n>
if (process.argv[1] && /fake-model-server\.[tj]s$/.test(process.argv[1])) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 3299;
  void startFakeModelServer({ port }).then((s) => console.log(`fake model server on ${s.baseUrl}`));
}
