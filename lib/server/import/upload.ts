import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { IMPORT_FORMATS, type CoordinateFrame } from "@/lib/domain/import-formats";
import { otherProjectChoiceSchema, type OtherProjectChoice } from "@/lib/domain/imports";
import { QWEN_MAX_PIXELS } from "@/lib/domain/geometry";
import { text } from "@/lib/domain/limits";
import { dataDir } from "../env";
import type { Db } from "../db";
import { appError } from "../errors";
import { DEFAULT_PROJECT, importFile, type ImportProgress, type ImportResult } from "./import-file";
import { CLI_ACTOR, auditActor, authorizeCaller, type Caller } from "../people";
import { MAX_UPLOAD_BYTES, receiveMultipart, tooLarge, type ReceivedFile } from "./multipart";
import { extractZip } from "./zip";

const IMAGE_EXT = new Set([".png", ".jpg", ".jpeg", ".webp"]);

export const importUploadFields = z.object({
  format: z.enum(IMPORT_FORMATS),
  project: text("projectName")
    .trim()
    .transform((s) => s || DEFAULT_PROJECT)
    .default(DEFAULT_PROJECT),
  frame: z.enum(["original", "resized", "rel1000"]).default("original"),
  maxPixels: z.coerce.number().int().positive().default(QWEN_MAX_PIXELS),
  /** Data already in another project: the web form asks first unless the person already chose. */
  onOtherProjects: otherProjectChoiceSchema.default("ask"),
});

/** An upload received and laid out for importFile, in its own work folder (remove it when done). */
export type ReceivedUpload = {
  work: string;
  file: string;
  displayName: string;
  format: z.infer<typeof importUploadFields>["format"];
  project: string | undefined;
  frame: CoordinateFrame;
  onOtherProjects: OtherProjectChoice;
  /** Problems name files as the uploader knows them (images/a.png), never by the server's temporary folder. */
  hide: (message: string) => string;
};

/**
 * Receive a multipart upload (fields plus one .zip, or one .jsonl with its images) into a work
 * folder, streamed to disk, never held in memory; nothing is left behind when it is refused.
 */
export async function receiveUpload(req: Request, caller: Caller = CLI_ACTOR): Promise<ReceivedUpload> {
  authorizeCaller(caller, "import.run");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_UPLOAD_BYTES) throw tooLarge();
  const work = path.join(dataDir(), "tmp", `upload-${Date.now()}-${randomBytes(4).toString("hex")}`);
  try {
    const received = await receiveMultipart(req, path.join(work, "incoming"));
    const fields = importUploadFields.parse(received.fields);
    const frame: CoordinateFrame = fields.frame === "resized" ? { kind: "resized", maxPixels: fields.maxPixels } : { kind: fields.frame };
    const folder = path.join(work, "data");
    const { file, displayName } = await arrangeFiles(received.files, folder, fields.format);
    const hide = (m: string) => m.replaceAll(`${folder}${path.sep}`, "");
    return {
      work,
      file,
      displayName,
      format: fields.format,
      project: fields.project,
      frame,
      onOtherProjects: fields.onOtherProjects,
      hide,
    };
  } catch (e) {
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}

/** Import a received upload as one batch (in this call), then delete the upload. */
export async function importReceived(
  up: ReceivedUpload,
  caller: Caller = CLI_ACTOR,
  opts: { db?: Db; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportResult> {
  try {
    const result = await importFile({
      file: up.file,
      format: up.format,
      project: up.project,
      frame: up.frame,
      onOtherProjects: up.onOtherProjects,
      displayName: up.displayName,
      actor: auditActor(caller),
      db: opts.db,
      onProgress: opts.onProgress,
    });
    if (result.ok) return result;
    return { ...result, problems: result.problems.map((p) => ({ ...p, message: up.hide(p.message) })) };
  } finally {
    await rm(up.work, { recursive: true, force: true });
  }
}

/** Receive a multipart upload and import it as one batch, in this call (the web route runs it as a job: import-jobs.ts). */
export async function importUpload(
  req: Request,
  caller: Caller = CLI_ACTOR,
  opts: { db?: Db; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportResult> {
  return importReceived(await receiveUpload(req, caller), caller, opts);
}

/** Put the uploaded files where importFile looks: the JSONL with an images/ folder beside it. */
async function arrangeFiles(files: ReceivedFile[], dir: string, format: string): Promise<{ file: string; displayName: string }> {
  const zips = files.filter((f) => extOf(f.name) === ".zip");
  if (zips.length > 0) {
    if (files.length !== 1) throw appError("bad_request", "error.uploadOneZip");
    const zip = zips[0]!;
    await extractZip(zip.file, dir);
    const jsonl = await findJsonl(dir, format);
    return { file: jsonl, displayName: `${zip.name}/${path.relative(dir, jsonl).split(path.sep).join("/")}` };
  }
  const jsonls = files.filter((f) => extOf(f.name) === ".jsonl");
  if (jsonls.length !== 1) throw appError("bad_request", "error.uploadOneJsonl", { n: jsonls.length });
  const other = files.find((f) => f !== jsonls[0] && !IMAGE_EXT.has(extOf(f.name)));
  if (other) throw appError("bad_request", "error.uploadNotData", { name: other.name });
  // Screenshots are found by file name: two different images with one name would be a silent mix-up.
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.name)) throw appError("bad_request", "error.uploadSameName", { name: f.name });
    seen.add(f.name);
  }
  const images = path.join(dir, "images");
  await mkdir(images, { recursive: true });
  for (const f of files) await rename(f.file, f === jsonls[0] ? path.join(dir, f.name) : path.join(images, f.name));
  return { file: path.join(dir, jsonls[0]!.name), displayName: jsonls[0]!.name };
}

function extOf(name: string): string {
  return path.extname(name).toLowerCase();
}

/**
 * The JSONL to import from an extracted zip: for the studio format a studio export's
 * trajectories.jsonl, otherwise data.jsonl (shallowest), or else the only *.jsonl.
 */
async function findJsonl(dir: string, format: string): Promise<string> {
  const all = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((p) => !p.includes(`${path.sep}__MACOSX${path.sep}`));
  const depth = (p: string) => path.relative(dir, p).split(path.sep).length;
  const preferred = format === "studio" ? "trajectories.jsonl" : "data.jsonl";
  const data = all.filter((p) => path.basename(p) === preferred).sort((a, b) => depth(a) - depth(b));
  if (data[0]) return data[0];
  if (all.length === 1) return all[0]!;
  if (all.length === 0) throw appError("unprocessable", "error.zipNoJsonl");
  const names = all.map((p) => path.relative(dir, p)).join(", ");
  throw appError("unprocessable", "error.zipManyJsonl", { names });
}
