// A person's studio settings live on the server: what one browser sets, another (a fresh session
// of the same person) reads; other people never see them; a value out of range changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { createUser } from "./index";
import { createToken } from "./tokens";
import { freshStudio } from "../testing/fixtures";
import { CLI_ACTOR } from "./audit";

let db: Db;
const tokens: Record<"ann" | "rev", string> = { ann: "", rev: "" };

beforeAll(async () => {
  ({ db } = await freshStudio());
  for (const [who, role] of [
    ["ann", "annotator"],
    ["rev", "reviewer"],
  ] as const) {
    const { person } = await createUser({ actor: CLI_ACTOR, email: `${who}@example.com`, name: who, role }, db);
    tokens[who] = (await createToken({ actor: CLI_ACTOR, user: person.email, name: "test" }, db)).token;
  }
});

async function settingsCall(who: "ann" | "rev", method: "GET" | "PUT", body?: unknown): Promise<Response> {
  const mod = await import("@/app/api/me/settings/route");
  const req = new Request("http://127.0.0.1:3000/api/me/settings", {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return mod[method](req, { params: Promise.resolve({}) });
}

describe("GET/PUT /api/me/settings", () => {
  it("starts empty, keeps what a person sets (merging keys), and shows it to them alone", async () => {
    expect(await (await settingsCall("ann", "GET")).json()).toEqual({ settings: {} });

    const put = await settingsCall("ann", "PUT", { sidePanelWidth: 520, isLegendCollapsed: true });
    expect(put.status, await put.clone().text()).toBe(200);
    await settingsCall("ann", "PUT", { verdictAdvances: true, isLegendCollapsed: false });

    // Another request (as from another browser) reads all three; an untouched key keeps its value.
    expect(await (await settingsCall("ann", "GET")).json()).toEqual({
      settings: { sidePanelWidth: 520, isLegendCollapsed: false, verdictAdvances: true },
    });
    expect(await (await settingsCall("rev", "GET")).json()).toEqual({ settings: {} });
  });

  it("refuses an unknown key or a value out of range with 422 naming the field, and changes nothing", async () => {
    const before = await (await settingsCall("ann", "GET")).json();
    for (const body of [{ sidePanelWidth: 5000 }, { sidePanelWidth: 10.5 }, { isReviewCompact: "yes" }, { theme: "dark" }]) {
      const res = await settingsCall("ann", "PUT", body);
      expect(res.status).toBe(422);
      const text = await res.text();
      expect(text).toContain(Object.keys(body)[0]!);
    }
    expect(await (await settingsCall("ann", "GET")).json()).toEqual(before);
  });

  it("reads a stored value that no longer fits as unset instead of failing the whole answer", async () => {
    const user = await db.user.findUniqueOrThrow({ where: { email: "rev@example.com" } });
    await db.personSetting.create({
      data: { userId: user.id, settingsJson: JSON.stringify({ sidePanelWidth: 99999, isReviewCompact: true, retired: 1 }) },
    });
    const res = await settingsCall("rev", "GET");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ settings: { isReviewCompact: true } });
  });
});
