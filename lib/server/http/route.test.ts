// route()'s answer check: what a handler returns is checked against the declared output schema before
// it is sent (a drift is our bug: a logged 500, never a wrong answer), except a value the very same
// schema has just produced from stored data (fromStore), which parses to itself. Both ways of answering
// (a web Response for Next, the JSON text for the API lane) say the same.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { responseOf, route } from "./route";
import { fromStore } from "../errors/stored";

const point = z.object({ x: z.number(), label: z.string().default("") });
const other = z.object({ x: z.unknown(), label: z.unknown() });
const ctx = { params: Promise.resolve({}) };
const get = () => new Request("http://127.0.0.1:3000/api/example");

function publicRoute(value: () => unknown, status?: number) {
  return route({ permission: "public", output: point, status, handler: async () => value() as z.input<typeof point> });
}

afterEach(() => vi.restoreAllMocks());

describe("the answer check", () => {
  it("sends what passes the schema, as the handler built it", async () => {
    const res = await publicRoute(() => ({ x: 1, label: "a" }), 201)(get(), ctx);
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ x: 1, label: "a" });
  });

  it("answers 500, and logs it, when the handler's value drifts from the schema", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await publicRoute(() => ({ x: "not a number", label: "a" }))(get(), ctx);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { code: "internal" } });
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/does not match its declared schema/);
  });

  it("does not parse again what the same schema produced from stored data", async () => {
    const parse = vi.spyOn(point, "safeParse");
    const stored = fromStore(point, { x: 2 }, "a point");
    expect(parse).toHaveBeenCalledTimes(1);
    const res = await publicRoute(() => stored)(get(), ctx);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(await res.json()).toEqual({ x: 2, label: "" });
  });

  it("still checks a value another schema produced, or a copy of a produced one", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const byOther = fromStore(other, { x: "text", label: 3 }, "something else");
    expect((await publicRoute(() => byOther)(get(), ctx)).status).toBe(500);
    const produced = fromStore(point, { x: 3 }, "a point");
    expect((await publicRoute(() => ({ ...produced, x: "drifted" }))(get(), ctx)).status).toBe(500);
  });
});

describe("the two ways of answering", () => {
  it("give the API lane the JSON text that Next's Response carries", async () => {
    const handler = publicRoute(() => ({ x: 4, label: "长" }), 202);
    const answer = await handler.answer(get(), ctx);
    expect(answer).toEqual({ status: 202, headers: [], json: '{"x":4,"label":"长"}' });
    const res = responseOf(answer);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('{"x":4,"label":"长"}');
  });

  it("refuse, when the route is declared, a JSON output with a status that carries no body", () => {
    for (const status of [204, 304]) expect(() => publicRoute(() => ({ x: 1 }), status)).toThrow(/has no body/);
    expect(() =>
      route({ permission: "public", output: "raw", status: 204, handler: async () => new Response(null, { status: 204 }) }),
    ).not.toThrow();
  });

  it("leave errors and raw answers as Responses", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = await publicRoute(() => ({ x: null })).answer(get(), ctx);
    expect("response" in failing && failing.response.status).toBe(500);
    const raw = route({ permission: "public", output: "raw", handler: async () => new Response("bytes", { status: 203 }) });
    const answer = await raw.answer(get(), ctx);
    expect("response" in answer && (await answer.response.text())).toBe("bytes");
  });
});
