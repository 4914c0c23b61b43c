import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PersonSettings } from "@/lib/domain/person-settings";
import { cachedPersonSettings, personSettingsQuery, savePersonSettings } from "./person-settings";

// The network is the only thing replaced: each request waits until the test answers it, so the
// order in which the server's answers arrive is the test's to choose.
type Pending = { method: string; body: unknown; answer: (status: number, settings: PersonSettings) => void };
let requests: Pending[];

beforeEach(() => {
  requests = [];
  vi.stubGlobal("fetch", (_url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      requests.push({
        method,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        answer: (status, settings) =>
          resolve(new Response(JSON.stringify(status === 200 ? { settings } : { error: { code: "x", message: "no" } }), { status })),
      });
    });
  });
});
afterEach(() => vi.unstubAllGlobals());

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
/** As a mounted component does (useQuery): the query is read at once and read again when invalidated. */
const watch = (client: QueryClient) => new QueryObserver(client, personSettingsQuery()).subscribe(() => undefined);
const settle = () => new Promise((r) => setTimeout(r, 0));
const request = (method: string) => {
  const found = requests.filter((r) => r.method === method).at(-1);
  if (!found) throw new Error(`no ${method} request`);
  return found;
};

describe("person settings in the cache", () => {
  it("keeps a change made before the settings arrived: the read in flight cannot take it back", async () => {
    const client = newClient();
    const stop = watch(client);
    await settle();
    const read = request("GET");

    const saving = savePersonSettings(client, { verdictAdvances: true });
    await settle();
    expect(cachedPersonSettings(client).verdictAdvances).toBe(true);

    // The read started before the change: it answers with what was stored then.
    read.answer(200, { sidePanelWidth: 500 });
    await settle();
    expect(cachedPersonSettings(client).verdictAdvances).toBe(true);

    const put = request("PUT");
    expect(put.body).toEqual({ verdictAdvances: true });
    put.answer(200, { sidePanelWidth: 500, verdictAdvances: true });
    await saving;
    expect(cachedPersonSettings(client)).toEqual({ sidePanelWidth: 500, verdictAdvances: true });
    expect(requests.filter((r) => r.method === "GET")).toHaveLength(1);
    stop();
  });

  it("an earlier save's answer does not take back a later change still on its way", async () => {
    const client = newClient();
    client.setQueryData(personSettingsQuery().queryKey, {});
    const first = savePersonSettings(client, { verdictAdvances: true });
    await settle();
    const second = savePersonSettings(client, { isNextScreenShown: true });
    await settle();
    const [put1, put2] = requests.filter((r) => r.method === "PUT");

    put1!.answer(200, { verdictAdvances: true });
    await first;
    expect(cachedPersonSettings(client)).toEqual({ verdictAdvances: true, isNextScreenShown: true });

    put2!.answer(200, { verdictAdvances: true, isNextScreenShown: true });
    await second;
    expect(cachedPersonSettings(client)).toEqual({ verdictAdvances: true, isNextScreenShown: true });
  });

  it("a refused save puts the server's settings back", async () => {
    const client = newClient();
    client.setQueryData(personSettingsQuery().queryKey, { verdictAdvances: false });
    const stop = watch(client);
    const saving = savePersonSettings(client, { verdictAdvances: true });
    await settle();
    expect(cachedPersonSettings(client).verdictAdvances).toBe(true);

    request("PUT").answer(400, {});
    await settle();
    request("GET").answer(200, { verdictAdvances: false });
    await saving;
    expect(cachedPersonSettings(client)).toEqual({ verdictAdvances: false });
    stop();
  });
});
