// Issue 36, a newcomer's first release of the demo: the cut names what it left out and why (held out, status,
// lane, near-duplicates) before and after, in its answer and in its refusal; the demo's own data is clean, so
// its first release shards with no --allow-* flag; the card names the release, its number and the studio
// version, and its Croissant types every column and names the licence as a URL. A real SQLite studio seeded
// with the real demo (60 drawn trajectories and the cookbook's two), the real CLI and the real bridge.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo } from "@/lib/bridge/test-fixtures";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { CLI_ACTOR } from "../people/audit";
import { seedDemo } from "../startup/seed";
import { freshStudio } from "../testing/fixtures";
import { exportRelease } from "./release";
import { cutRelease, freezeEvalSet } from "./snapshots";

let db: Db;
let ids: string[];

/** Approve trajectories as a reviewer would hand them back unchanged: status approved, every step judged good. */
async function approve(which: string[]) {
  await db.trajectory.updateMany({ where: { id: { in: which } }, data: { status: "approved", outcome: "success", lane: "full" } });
  await db.step.updateMany({ where: { trajectoryId: { in: which } }, data: { verdict: "good" } });
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  await seedDemo({ db });
  ids = (await db.trajectory.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } })).map((t) => t.id);
}, 600_000);

describe("a newcomer's first release of the demo", () => {
  it("refuses an empty cut naming why: 3 approved trajectories held out as an evaluation set, the rest of another status", async () => {
    const three = ids.slice(10, 13);
    await approve(three);
    await freezeEvalSet({ caller: CLI_ACTOR, name: "first-eval", ids: three, heldOut: true }, db);
    const e = await refusal(cutRelease({ caller: CLI_ACTOR, name: "first" }, db));
    expect(e.code).toBe("unprocessable");
    expect(e.message).toContain(`of ${ids.length} trajectories in scope, ${ids.length - 3} have another status`);
    expect(e.message).toContain("3 are held out for evaluation sets (first-eval v1)");
    expect(e.message).not.toMatch(/no trajectory matches/);
  });

  it("a cut's answer and the CLI's say what they left out and why, before and after", async () => {
    const rest = ids.filter((_, i) => i < 10 || i >= 13);
    await approve(rest);
    const r = await cutRelease({ caller: CLI_ACTOR, name: "first", license: "CC-BY-4.0" }, db);
    expect(r.trajectories).toBe(ids.length - 3);
    expect(r.leftOut).toEqual({
      before: ids.length,
      after: ids.length - 3,
      status: 0,
      app: 0,
      lane: 0,
      heldOut: 3,
      heldOutSets: ["first-eval v1"],
      nearDuplicate: 0,
    });

    const { runRelease } = await import("@/lib/cli/snapshots");
    const out: string[] = [];
    const outcome = await runRelease(
      ["cut", "--name", "by-lane", "--lane", "fast"],
      { out: (s) => out.push(s), err: (s) => out.push(s) },
      async () => ({ migrate: async () => undefined, CLI_ACTOR }),
    ).catch((e: unknown) => e);
    // Every approved trajectory went through the full lane: a fast-lane cut takes nothing, and says why.
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).message).toContain(`0 have another status, 0 another app, ${ids.length} another lane, 0 are held out`);

    const cli: string[] = [];
    expect(
      await runRelease(["cut", "--name", "cli", "--status", "all"], { out: (s) => cli.push(s), err: (s) => cli.push(s) }, async () => ({
        migrate: async () => undefined,
        CLI_ACTOR,
      })),
    ).toBe(0);
    expect(cli.join("")).toContain(`before: ${ids.length} trajectories in scope; after: ${ids.length - 3} in the release`);
    expect(cli.join("")).toContain("left out: 3 held out for evaluation sets (first-eval v1)");
  });

  it("shards with no --allow-* flag (no click outside its own box), and its card names the release and the studio", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "demo-release-"));
    const exported = path.join(work, "release");
    await exportRelease({ caller: CLI_ACTOR, number: 1, outDir: exported }, db);
    const manifest = JSON.parse(readFileSync(path.join(exported, "manifest.json"), "utf8")) as { studioVersion?: string };
    const version = (JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version: string }).version;
    expect(manifest.studioVersion).toBe(version);

    const out = path.join(work, "sft");
    const io = captureIo();
    const code = await runBridge(["sft", exported, "--target", "ms-swift", "--out", out, "--shards", "parquet"], io);
    expect(code, io.err()).toBe(0);
    expect(io.err()).not.toMatch(/problem:/);
    const card = readFileSync(path.join(out, "README.md"), "utf8");
    expect(card).toContain("\n# first (release 1)\n");
    expect(card).toContain(`by Trajectory Studio ${version}.`);
    expect(card).toContain("license: CC-BY-4.0");
    const cr = JSON.parse(readFileSync(path.join(out, "croissant.json"), "utf8")) as {
      license: string;
      recordSet: { field: { name: string; dataType?: string; isArray?: boolean; subField?: { name: string; dataType?: string }[] }[] }[];
    };
    expect(cr.license).toBe("https://spdx.org/licenses/CC-BY-4.0.html");
    const fields = new Map(cr.recordSet[0]!.field.map((f) => [f.name, f]));
    expect(fields.get("images")).toMatchObject({ dataType: "sc:ImageObject", isArray: true });
    const messages = fields.get("messages")!;
    expect(messages.isArray).toBe(true);
    expect(messages.dataType).toBeUndefined();
    expect(messages.subField?.map((f) => [f.name, f.dataType])).toEqual([
      ["role", "sc:Text"],
      ["content", "sc:Text"],
    ]);
    expect(JSON.stringify(cr)).not.toContain('"other"');
  });

  it("refuses shards without a licence, naming the flag, and writes no card saying 'other'", async () => {
    const r = await cutRelease({ caller: CLI_ACTOR, name: "unlicensed" }, db);
    const work = await mkdtemp(path.join(os.tmpdir(), "demo-unlicensed-"));
    const exported = path.join(work, "release");
    await exportRelease({ caller: CLI_ACTOR, number: r.number, outDir: exported }, db);
    const io = captureIo();
    const out = path.join(work, "sft");
    expect(await runBridge(["sft", exported, "--target", "ms-swift", "--out", out, "--shards", "parquet"], io)).toBe(2);
    expect(io.err()).toContain("pass --license <SPDX id>");
    expect(existsSync(path.join(out, "README.md"))).toBe(false);
  });

  it("the canonical export's steps carry the process label and the trajectory its first_error, as the prm rows do", async () => {
    // A reviewer judged step 2 of one trajectory harmful: its label is -1 and it is the first error.
    const target = ids[20]!;
    await db.step.updateMany({ where: { trajectoryId: target, index: 1 }, data: { verdict: "harmful" } });
    const r = await cutRelease({ caller: CLI_ACTOR, name: "labelled", license: "CC-BY-4.0" }, db);
    const work = await mkdtemp(path.join(os.tmpdir(), "demo-labels-"));
    const exported = path.join(work, "release");
    await exportRelease({ caller: CLI_ACTOR, number: r.number, outDir: exported }, db);
    const lines = readFileSync(path.join(exported, "trajectories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; firstError: number | null; steps: { index: number; processLabel: number | null }[] });
    const harmed = lines.find((l) => l.id === target)!;
    expect(harmed.firstError).toBe(2);
    expect(harmed.steps.map((s) => s.processLabel)).toEqual(harmed.steps.map((s) => (s.index === 1 ? -1 : 1)));
    expect(lines.filter((l) => l.id !== target).every((l) => l.firstError === null)).toBe(true);

    const io = captureIo();
    const prm = path.join(work, "prm");
    expect(await runBridge(["prm", exported, "--out", prm, "--allow-problems"], io), io.err()).toBe(0);
    const rows = readFileSync(path.join(prm, "mobile_use_prm.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { trajectory_id: string; step: number; process_label: number; first_error: number | null });
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const line = byId.get(row.trajectory_id)!;
      expect(row.process_label).toBe(line.steps[row.step]!.processLabel);
      expect(row.first_error).toBe(line.firstError);
    }
  });
});
