// The dashboard's tables as downloads (issue 26 item 6): the CSV a spreadsheet opens holds the page's
// numbers, a cell that would run as a formula is escaped, and the JSON twin returns the same figures.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_TABLES } from "@/lib/domain/dashboard-tables";
import { CLI_ACTOR } from "../people/audit";
import { getDashboard } from "./dashboard";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import { blankPng, freshStudio } from "../testing/fixtures";
import { createToken } from "../people/tokens";

type Get = (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>;
const DDE = "=cmd|' /C calc'!A0";
let db: Db;
let get: Get;
const tokens: Record<string, string> = {};

async function call(table: string, who: string, format?: string): Promise<Response> {
  const url = `http://127.0.0.1:3000/api/dashboard/tables/${table}${format ? `?format=${format}` : ""}`;
  return get(new Request(url, { headers: { authorization: `Bearer ${tokens[who]}` } }), { params: Promise.resolve({ table }) });
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  for (const role of ["admin", "annotator"] as const) {
    const { person } = await createUser({ actor: CLI_ACTOR, email: `${role}@example.com`, role, password: "password-123" }, db);
    tokens[role] = (await createToken({ actor: CLI_ACTOR, user: person.email, name: "csv" }, db)).token;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "csv-"));
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (goal: string, app: string) =>
    JSON.stringify({ goal, app, steps: [{ action_content: { action: "open", text: app }, screenshot: "s.png" }] });
  await writeFile(path.join(dir, "d.jsonl"), [line("a", "淘宝"), line("b", "淘宝"), line("c", DDE)].join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  const one = await db.trajectory.findFirstOrThrow({ where: { app: "淘宝" } });
  await db.trajectory.update({ where: { id: one.id }, data: { status: "approved" } });
  const mod = (await import(pathToFileURL(path.resolve("app/api/dashboard/tables/[table]/route.ts")).href)) as { GET: Get };
  get = mod.GET;
});

describe("dashboard tables as CSV and JSON", () => {
  it("by app: the CSV parses back to the dashboard's own counts, with a BOM and a download name", async () => {
    const res = await call("by-app", "admin");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="studio-by-app-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the UTF-8 byte-order mark (Response.text() strips it)
    const text = bytes.toString("utf8");
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows[0]).toEqual(["app", "new", "in_progress", "submitted", "approved", "rejected"]);
    const admin = await db.user.findFirstOrThrow({ where: { email: "admin@example.com" } });
    const d = await getDashboard({ actor: { id: admin.id, email: admin.email, name: admin.name, role: "admin" } }, db);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r.slice(1).map(Number)]));
    expect(byName.get("淘宝")).toEqual([1, 0, 0, 1, 0]);
    for (const r of d.byApp.filter((r) => r.app !== DDE))
      expect(byName.get(r.app)).toEqual([r.new, r.in_progress, r.submitted, r.approved, r.rejected]);
  });

  it("a cell that would run as a formula is written with a leading quote, and reads back as the text", async () => {
    const rows = parse(await (await call("by-app", "admin")).text(), { bom: true }) as string[][];
    expect(rows.map((r) => r[0])).toContain(`'${DDE}`);
    expect(rows.some((r) => r[0] === DDE)).toBe(false);
  });

  it("the JSON twin returns the same rows as numbers; every table answers", async () => {
    const json = (await (await call("by-app", "admin", "json")).json()) as { columns: string[]; rows: unknown[][] };
    expect(json.columns[0]).toBe("app");
    expect(json.rows.find((r) => r[0] === DDE)).toEqual([DDE, 1, 0, 0, 0, 0]);
    for (const table of DASHBOARD_TABLES) expect((await call(table, "admin")).status, table).toBe(200);
    const review = parse(await (await call("review", "admin")).text(), { bom: true }) as string[][];
    expect(review).toEqual([
      ["approved", "sent_back", "approval_rate"],
      ["0", "0", ""],
    ]);
  });

  it("an annotator is refused; an unknown table and format name what is wrong", async () => {
    expect((await call("by-app", "annotator")).status).toBe(403);
    const unknown = await call("people", "admin");
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(JSON.stringify(await unknown.json())).toMatch(/table/);
    expect((await call("by-app", "admin", "xlsx")).status).toBeLessThan(500);
  });
});
