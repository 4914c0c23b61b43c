import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { QWEN_MIN_PIXELS } from "@/lib/domain/geometry";
import { emptyHints, measureTrajectorySpaces, SUGGESTED_MAX_PIXELS, usesAnswer } from "@/lib/domain/trainer-hints";
import { mobileR1Row, uiS1Row } from "@/lib/domain/source-rows";
import { isTrainingTarget, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { db as defaultDb, type Db } from "../db";
import { recordAudit, auditActor, authorizeCaller, type Caller } from "../people";
import { appError } from "../errors";
import { EXPORT_FORMAT, type ExportManifest } from "@/lib/domain/export-manifest";
import { sourceImageName } from "./dataset";
import { copyScreenshotTo, screenshotExt } from "../object-store";
import { findEvalSet, findRelease, recordOf } from "./snapshots";

/** Members read per query while writing a release. */
const PAGE = 200;

export type ReleaseExportSummary = {
  outDir: string;
  release: number;
  name: string;
  trajectories: number;
  steps: number;
  screenshots: number;
};

/**
 * Write release `number` as an export folder the bridge reads (manifest.json, trajectories.jsonl,
 * screenshots/, mobile-r1/, ui-s1/), from the members' stored canonical JSON, never from the live
 * trajectories. Every line carries `lineage` (release name and number, the trajectory's annotation
 * version). The files depend only on the release: members in stored order, the manifest's time is the
 * cut's, its file list sorted by path, and the studio version that wrote it (package.json's), so exporting a
 * release twice with one studio gives byte-identical files. Written into a hidden sibling folder and renamed at the end.
 */
export async function exportRelease(
  { caller, number, outDir: out }: { caller: Caller; number: number; outDir: string },
  prisma: Db = defaultDb(),
): Promise<ReleaseExportSummary> {
  authorizeCaller(caller, "export.run");
  return exportSnapshot(prisma, caller, await findRelease(prisma, number), out);
}

/**
 * Write version `version` (the latest when absent) of evaluation set `name` as an export folder, the same way
 * as a release (exportRelease) but without lineage: the folder `bridge score` reads an evaluation run's
 * predictions file against. The manifest names the set (`evalSet`) where a release's names the release.
 */
export async function exportEvalSet(
  { caller, name, version, outDir }: { caller: Caller; name: string; version?: number; outDir: string },
  prisma: Db = defaultDb(),
): Promise<ReleaseExportSummary> {
  authorizeCaller(caller, "export.run");
  return exportSnapshot(prisma, caller, await findEvalSet(prisma, name, version), outDir);
}

async function exportSnapshot(
  prisma: Db,
  caller: Caller,
  release: Awaited<ReturnType<typeof findRelease>>,
  out: string,
): Promise<ReleaseExportSummary> {
  const isRelease = release.kind === "release";
  const outDir = path.resolve(out);
  if (existsSync(outDir)) throw appError("conflict", "error.exportFolderExists", { dir: outDir });
  const work = path.join(path.dirname(outDir), `.${path.basename(outDir)}.partial-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(path.join(work, "screenshots"), { recursive: true });
    await mkdir(path.join(work, "mobile-r1", "images"), { recursive: true });
    await mkdir(path.join(work, "ui-s1"), { recursive: true });
    const files = new Map<string, string>();
    const r1Names = new Map<string, string>();
    // The three JSON Lines files, appended page by page (bounded memory) and hashed as written.
    const jsonl = (["trajectories.jsonl", "mobile-r1/data.jsonl", "ui-s1/data.jsonl"] as const).map((rel) => ({
      rel,
      hash: createHash("sha256"),
      text: "",
    }));
    const [canonical, mobileR1, uiS1] = jsonl as [(typeof jsonl)[0], (typeof jsonl)[0], (typeof jsonl)[0]];
    const counts = { trajectories: 0, steps: 0, trainingSteps: 0, harmfulSteps: 0, screenshots: 0 };
    const byApp: Record<string, number> = {};
    const heldOut = { trajectories: 0, steps: 0, sets: new Set<string>() };
    let trainer = emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS);
    let withAnswer = emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS);
    let anyAnswer = false;
    for (let position = 0; ; position += PAGE) {
      const members = await prisma.snapshotMember.findMany({
        where: { snapshotId: release.id, position: { gte: position, lt: position + PAGE } },
        orderBy: { position: "asc" },
      });
      if (members.length === 0) break;
      const shas = [...new Set(members.flatMap((m) => recordOf(m.canonicalJson, m.trajectoryId).steps.map((s) => s.screenshot.sha256)))];
      const mimes = new Map(
        (await prisma.screenshot.findMany({ where: { sha256: { in: shas } }, select: { sha256: true, mime: true } })).map((s) => [
          s.sha256,
          s.mime,
        ]),
      );
      for (const m of members) {
        const stored = recordOf(m.canonicalJson, m.trajectoryId);
        const record: CanonicalTrajectory = isRelease
          ? { ...stored, lineage: { release: release.name, releaseNumber: release.number, trajectoryVersion: m.version } }
          : stored;
        const r1Files: string[] = [];
        for (const s of record.steps) {
          const sha = s.screenshot.sha256;
          const mime = mimes.get(sha);
          if (mime === undefined) throw appError("not_found", "error.screenshotMissing", { id: sha });
          const ext = screenshotExt(mime);
          const rel = `screenshots/${sha}${ext}`;
          if (!files.has(rel)) {
            await copyScreenshotTo(sha, mime, path.join(work, rel));
            files.set(rel, sha);
            counts.screenshots += 1;
          }
          // The Mobile-R1 image name as the export gives it: the source's own name unless another screenshot holds it.
          const wanted = sourceImageName(s.original.row) ?? `${sha}${ext}`;
          const holder = r1Names.get(wanted);
          const name = holder === undefined || holder === sha ? wanted : `${sha}${ext}`;
          if (!r1Names.has(name)) {
            r1Names.set(name, sha);
            await link(path.join(work, rel), path.join(work, "mobile-r1", "images", name));
            files.set(`mobile-r1/images/${name}`, sha);
          }
          r1Files.push(name);
        }
        canonical.text += `${JSON.stringify(record)}\n`;
        const r1 = mobileR1Row(record, (step) => r1Files[step.index]!);
        if ((r1.trajectory as unknown[]).length > 0) mobileR1.text += `${JSON.stringify(r1)}\n`;
        const ui = uiS1Row(record);
        if (ui) uiS1.text += `${JSON.stringify(ui)}\n`;
        counts.trajectories += 1;
        counts.steps += record.steps.length;
        counts.trainingSteps += record.steps.filter((s) => isTrainingTarget(record, s)).length;
        counts.harmfulSteps += record.steps.filter((s) => s.verdict === "harmful").length;
        byApp[record.app] = (byApp[record.app] ?? 0) + 1;
        if (record.heldOut) {
          heldOut.trajectories += 1;
          heldOut.steps += record.steps.length;
          for (const label of record.heldOut) heldOut.sets.add(label);
        }
        [trainer, withAnswer] = measureTrajectorySpaces([trainer, withAnswer], record, ["mobile-use", "ui-s1"]);
        anyAnswer ||= usesAnswer(record);
      }
      for (const f of jsonl) {
        f.hash.update(f.text);
        await appendFile(path.join(work, f.rel), f.text);
        f.text = "";
      }
    }
    for (const f of jsonl) {
      await appendFile(path.join(work, f.rel), ""); // an empty release still has its files
      files.set(f.rel, f.hash.digest("hex"));
    }
    // Both kinds of snapshot store their status, apps and project filters (snapshots.ts); the rest is carried as it is.
    const filters = JSON.parse(release.filtersJson) as ExportManifest["filters"];
    const pkg = JSON.parse(await readFile(path.join(process.cwd(), "package.json"), "utf8")) as { version: string };
    const manifest: ExportManifest = {
      format: EXPORT_FORMAT,
      createdAt: release.createdAt.toISOString(),
      studioVersion: pkg.version,
      coordinateFrame: "original screenshot pixels",
      [isRelease ? "release" : "evalSet"]: {
        name: release.name,
        number: release.number,
        contentSha256: release.contentSha256,
        cutBy: release.createdByLabel,
        cutAt: release.createdAt.toISOString(),
      },
      filters,
      split: { kind: "none" },
      counts: { ...counts, byApp: Object.fromEntries(Object.entries(byApp).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))), bySplit: {} },
      trainer: anyAnswer ? withAnswer : trainer,
      ...(heldOut.trajectories > 0
        ? { heldOut: { trajectories: heldOut.trajectories, steps: heldOut.steps, sets: [...heldOut.sets].sort() } }
        : {}),
      files: Object.fromEntries([...files.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))),
    };
    await writeFile(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(work, outDir);
    await recordAudit(prisma, {
      actor: auditActor(caller),
      action: isRelease ? "release.export" : "evalset.export",
      entityType: "snapshot",
      entityId: release.id,
      after: { outDir, number: release.number, trajectories: counts.trajectories },
    });
    return {
      outDir,
      release: release.number,
      name: release.name,
      trajectories: counts.trajectories,
      steps: counts.steps,
      screenshots: counts.screenshots,
    };
  } catch (e) {
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}
