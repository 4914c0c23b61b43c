// Frozen evaluation sets and releases (issue 25 item 1, issue 27 items 1-2) on real databases: SQLite,
// and PostgreSQL when the machine has it. A person edits through the real save; the set and the release
// keep what they held, the diff names exactly the edited step and field with who did it, and a release
// exported twice is byte-identical.
import { exportManifestSchema } from "@/lib/domain/export-manifest";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { canonicalTrajectorySchema, editorPath } from "@/lib/domain/trajectory";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo, readJsonl } from "@/lib/bridge/test-fixtures";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { exportDataset } from "./dataset";
import { importFile } from "../import";
import { exportRelease } from "./release";
import { cutRelease, freezeEvalSet, listSnapshots, setHeldOut, showSnapshot } from "./snapshots";
import { diffReleases } from "./release-diff";
import { getTrajectory } from "../annotate/trajectories";
import { blankPng, freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";

type Studio = { db: Db; dir: string };

/** Every file under `dir` (relative path -> bytes). */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, full), readFileSync(full));
  }
  return out;
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => canonicalTrajectorySchema.parse(JSON.parse(l)));

async function expectAppError(p: Promise<unknown>, code: string, text: RegExp): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
  expect((e as AppError).message).toMatch(text);
}

function snapshotSuite(open: () => Promise<Studio>) {
  let s: Studio;
  let admin: Actor;
  const ids: Record<string, string> = {};

  const steps = async (id: string): Promise<StepView[]> => (await getTrajectory(id, s.db)).steps;
  /** Save one step as the admin, changing only what `patch` names (the real save, with its audit row). */
  async function edit(id: string, index: number, patch: Partial<Pick<StepView, "clearAction">> = {}) {
    const step = (await steps(id))[index]!;
    await saveStepAnnotation(
      {
        actor: admin,
        stepId: step.id,
        thought: step.thought,
        clearAction: patch.clearAction ?? step.clearAction,
        toolCall: step.toolCall,
        box: step.box,
        verdict: step.verdict,
        version: step.version,
      },
      s.db,
    );
  }
  const tmp = async () => mkdtemp(path.join(os.tmpdir(), "snap-"));

  it("seeds four trajectories in two apps", async () => {
    s = await open();
    await writeFile(path.join(s.dir, "s.png"), await blankPng(1080, 2400));
    const u = await s.db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
    admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
    const goals = [
      { key: "a", goal: "Set an alarm for 7", app: "Clock" },
      { key: "b", goal: "Start a timer", app: "Clock" },
      { key: "c", goal: "Archive the first mail", app: "Mail" },
      { key: "d", goal: "Reply to Ann", app: "Mail" },
    ];
    const file = path.join(s.dir, "seed.jsonl");
    const line = (g: (typeof goals)[number]) =>
      JSON.stringify({
        goal: g.goal,
        app: g.app,
        steps: [0, 1, 2].map((i) => ({
          action_content: { action: "click", coordinate: [100 + i, 200] },
          thought: `Tap item ${i + 1}.`,
          action_description: `Tap item ${i + 1}`,
          screenshot: "s.png",
        })),
      });
    await writeFile(file, `${goals.map(line).join("\n")}\n`);
    const r = await importFile({ file, format: "ui-s1", screenshotsDir: s.dir, db: s.db });
    expect(r.ok).toBe(true);
    for (const g of goals) ids[g.key] = (await s.db.trajectory.findFirstOrThrow({ where: { instruction: g.goal } })).id;
  });

  it("refuses to freeze what is not there or not approved, and writes nothing", async () => {
    await expectAppError(freezeEvalSet({ caller: admin, name: "smoke", ids: [ids.a!] }, s.db), "unprocessable", /is “new”.*“approved”/);
    await expectAppError(freezeEvalSet({ caller: admin, name: "smoke", ids: ["nope"], status: "all" }, s.db), "not_found", /nope/);
    await expectAppError(freezeEvalSet({ caller: admin, name: "smoke", apps: ["Clock"] }, s.db), "unprocessable", /smoke/);
    const annotator = { ...admin, id: "u-ann", role: "annotator" as const };
    await expectAppError(freezeEvalSet({ caller: annotator, name: "smoke", status: "all" }, s.db), "forbidden", /./);
    expect(await s.db.snapshot.count()).toBe(0);
  });

  it("a frozen set is unchanged after a person edits one of its trajectories; refreezing makes version 2 with the edit", async () => {
    const v1 = await freezeEvalSet({ caller: admin, name: "smoke", ids: [ids.a!, ids.c!], status: "all" }, s.db);
    expect(v1).toMatchObject({
      kind: "eval-set",
      name: "smoke",
      number: 1,
      trajectories: 2,
      steps: 6,
      heldOut: false,
      createdBy: "admin@test.local",
    });
    const before = await s.db.snapshotMember.findMany({ where: { snapshotId: v1.id }, orderBy: { position: "asc" } });

    await edit(ids.a!, 1, { clearAction: "Open the alarm tab" });
    expect((await steps(ids.a!))[1]!.clearAction).toBe("Open the alarm tab");

    const after = await s.db.snapshotMember.findMany({ where: { snapshotId: v1.id }, orderBy: { position: "asc" } });
    expect(after).toEqual(before);
    const shown = await showSnapshot({ caller: admin, id: v1.id }, s.db);
    expect(shown.snapshot.contentSha256).toBe(v1.contentSha256);
    const storedA = JSON.parse(before.find((m) => m.trajectoryId === ids.a)!.canonicalJson) as { steps: { clearAction: string }[] };
    expect(storedA.steps[1]!.clearAction).not.toBe("Open the alarm tab");

    const v2 = await freezeEvalSet({ caller: admin, name: "smoke", ids: [ids.a!, ids.c!], status: "all" }, s.db);
    expect(v2).toMatchObject({ number: 2, trajectories: 2 });
    expect(v2.contentSha256).not.toBe(v1.contentSha256);
    const a2 = await s.db.snapshotMember.findFirstOrThrow({ where: { snapshotId: v2.id, trajectoryId: ids.a! } });
    expect((JSON.parse(a2.canonicalJson) as { steps: { clearAction: string }[] }).steps[1]!.clearAction).toBe("Open the alarm tab");
    // C was not edited: the same canonical JSON in both versions.
    const c1 = before.find((m) => m.trajectoryId === ids.c)!;
    const c2 = await s.db.snapshotMember.findFirstOrThrow({ where: { snapshotId: v2.id, trajectoryId: ids.c! } });
    expect(c2.sha256).toBe(c1.sha256);
    expect((await listSnapshots({ caller: admin, kind: "eval-set" }, s.db)).map((x) => x.number)).toEqual([2, 1]);
  });

  it("a held-out set marks its trajectories in an export, and every bridge training command refuses them without --allow-held-out", async () => {
    const v2 = (await listSnapshots({ caller: admin, kind: "eval-set" }, s.db))[0]!;
    await setHeldOut({ caller: admin, id: v2.id, heldOut: true }, s.db);
    const out = path.join(await tmp(), "ds");
    await exportDataset({ outDir: out, status: "all", db: s.db });
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as { heldOut?: unknown };
    expect(manifest.heldOut).toEqual({ trajectories: 2, steps: 6, sets: ["smoke v2"] });
    const byId = new Map(lines(path.join(out, "trajectories.jsonl")).map((t) => [t.id, t]));
    expect(byId.get(ids.a!)!.heldOut).toEqual(["smoke v2"]);
    expect(byId.get(ids.c!)!.heldOut).toEqual(["smoke v2"]);
    expect(byId.get(ids.b!)!.heldOut).toBeUndefined();

    for (const [command, extra] of [
      ["sft", ["--target", "ms-swift"]],
      ["grpo", ["--target", "ms-swift"]],
      ["traj", ["--target", "ui-s1"]],
      ["dpo", ["--target", "ms-swift"]],
      ["critic", []],
      ["prm", []],
    ] as const) {
      const io = captureIo();
      const rows = path.join(await tmp(), command);
      const code = await runBridge([command, out, "--out", rows, "--allow-unreviewed", ...extra], io);
      expect(code, command).toBe(1);
      expect(io.err(), command).toContain(
        `bridge ${command}: refused: 6 steps (2 trajectories) belong to held-out evaluation sets (smoke v2)`,
      );
      expect(readdirSync(path.dirname(rows)), command).not.toContain(command);
    }
    const io = captureIo();
    const rows = path.join(await tmp(), "sft");
    expect(await runBridge(["sft", out, "--out", rows, "--target", "ms-swift", "--allow-unreviewed", "--allow-held-out"], io)).toBe(0);
    expect(io.err()).toContain("writing 6 held-out steps (smoke v2)");
  });

  it("a release leaves held-out sets out; an edit between two cuts is exactly one step and field in the diff, with who made it", async () => {
    // D is started before the first cut (a save that changes nothing), so the cut-to-cut change is the one edit.
    await edit(ids.d!, 0);
    const r1 = await cutRelease({ caller: admin, name: "weekly", status: "all" }, s.db);
    expect(r1).toMatchObject({ kind: "release", number: 1, trajectories: 2, steps: 6, createdBy: "admin@test.local" });
    expect(r1.filters).toMatchObject({ includeHeldOut: false, heldOutLeftOut: 2 });
    const members = await s.db.snapshotMember.findMany({ where: { snapshotId: r1.id } });
    expect(members.map((m) => m.trajectoryId).sort()).toEqual([ids.b!, ids.d!].sort());

    const first = path.join(await tmp(), "r1");
    await exportRelease({ caller: admin, number: 1, outDir: first }, s.db);

    await edit(ids.d!, 2, { clearAction: "Tap Reply" });
    const r2 = await cutRelease({ caller: admin, name: "weekly", status: "all" }, s.db);
    expect(r2.number).toBe(2);
    expect(r2.contentSha256).not.toBe(r1.contentSha256);

    const diff = await diffReleases({ caller: admin, from: 1, to: 2 }, s.db);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.unchanged).toBe(1);
    expect(diff.changed).toHaveLength(1);
    const [changed] = diff.changed;
    expect(changed).toMatchObject({ id: ids.d, app: "Mail", instruction: "Reply to Ann" });
    expect(changed!.fields).toHaveLength(1);
    expect(changed!.fields[0]).toMatchObject({ step: 2, field: "clearAction", after: "Tap Reply" });
    expect(changed!.fields[0]!.before).not.toBe("Tap Reply");
    expect(changed!.fields[0]!.changedBy).toHaveLength(1);
    expect(changed!.fields[0]!.changedBy[0]!.by).toBe("admin@test.local");
    const at = Date.parse(changed!.fields[0]!.changedBy[0]!.at);
    expect(at).toBeGreaterThan(Date.parse(r1.createdAt));
    expect(at).toBeLessThanOrEqual(Date.parse(r2.createdAt));

    // Release 1 exported again after the edit: every file byte-identical to its first export.
    const again = path.join(await tmp(), "r1-again");
    await exportRelease({ caller: admin, number: 1, outDir: again }, s.db);
    const [x, y] = [tree(first), tree(again)];
    expect([...y.keys()].sort()).toEqual([...x.keys()].sort());
    expect(x.size).toBeGreaterThan(4);
    for (const [rel, bytes] of x) expect(y.get(rel)!.equals(bytes), rel).toBe(true);
    const d1 = lines(path.join(first, "trajectories.jsonl")).find((t) => t.id === ids.d)!;
    expect(d1.steps[2]!.clearAction).not.toBe("Tap Reply");
    expect(d1.lineage).toEqual({ release: "weekly", releaseNumber: 1, trajectoryVersion: 1 });
    const manifest = JSON.parse(readFileSync(path.join(first, "manifest.json"), "utf8")) as Record<string, unknown>;
    exportManifestSchema.strict().parse(manifest); // a release's manifest is the export manifest's schema too
    expect(manifest.release).toMatchObject({ name: "weekly", number: 1, contentSha256: r1.contentSha256, cutBy: "admin@test.local" });
  });

  it("a trainer row of a release export leads back to its release, trajectory, step and annotation version", async () => {
    const out = path.join(await tmp(), "r2");
    await exportRelease({ caller: admin, number: 2, outDir: out }, s.db);
    const rows = path.join(await tmp(), "sft");
    const io = captureIo();
    expect(await runBridge(["sft", out, "--out", rows, "--target", "ms-swift", "--allow-unreviewed"], io), io.err()).toBe(0);
    const written = (await readJsonl(path.join(rows, "mobile_use_sft.jsonl"))) as {
      messages: unknown[];
      lineage: Record<string, unknown>;
    }[];
    const row = written.find((r) => r.lineage.trajectory_id === ids.d && r.lineage.step === 2)!;
    const stepVersion = (await steps(ids.d!))[2]!.version;
    expect(row.lineage).toEqual({
      release: "weekly",
      release_number: 2,
      trajectory_id: ids.d,
      step: 2,
      trajectory_version: 1,
      step_version: stepVersion,
      editor: editorPath(ids.d!, 2),
    });
    expect(row.lineage.editor).toBe(`/trajectories/${ids.d}?step=3`);
    // The row's own target is the edited step's action.
    expect(JSON.stringify(row.messages)).toContain("Tap Reply");

    // verl: the same lineage in extra_info, read back from the parquet by an independent reader.
    const verl = path.join(await tmp(), "verl");
    expect(await runBridge(["grpo", out, "--out", verl, "--target", "verl", "--allow-unreviewed"], captureIo())).toBe(0);
    const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
    const parquet = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(verl, "mobile_use_grpo.parquet")) })) as {
      extra_info: Record<string, unknown>;
    }[];
    const info = parquet.find((r) => r.extra_info.trajectory_id === ids.d && r.extra_info.step === 2)!.extra_info;
    expect(info).toMatchObject({
      release: "weekly",
      release_number: 2,
      trajectory_version: 1,
      step_version: stepVersion,
      editor: editorPath(ids.d!, 2),
    });
  });

  it("a release can take held-out sets when asked; their lines stay marked", async () => {
    const r3 = await cutRelease({ caller: admin, name: "with-eval", status: "all", includeHeldOut: true }, s.db);
    expect(r3).toMatchObject({ number: 3, trajectories: 4 });
    const out = path.join(await tmp(), "r3");
    await exportRelease({ caller: admin, number: 3, outDir: out }, s.db);
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as { heldOut?: unknown };
    expect(manifest.heldOut).toEqual({ trajectories: 2, steps: 6, sets: ["smoke v2"] });
    await expectAppError(exportRelease({ caller: admin, number: 9, outDir: path.join(out, "x") }, s.db), "not_found", /Release 9/);
  });
}

describe("snapshots on SQLite", () => {
  snapshotSuite(async () => {
    const s = await freshStudio();
    return { db: s.db, dir: s.dir };
  });
});

describe.skipIf(!hasPostgres)("snapshots on PostgreSQL", () => {
  let server: PostgresServer | undefined;
  afterAll(() => server?.stop());
  snapshotSuite(async () => {
    server = startPostgres();
    const { db, dir } = await server.freshDb();
    return { db, dir };
  });
});
