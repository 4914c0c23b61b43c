// The screenshot store on an S3-compatible server (s3rver, a real HTTP server speaking the S3 API),
// and the settings that choose it. The local folder store is exercised by every other test.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOBILE_R1_RELEASE_IMAGES, MOBILE_R1_RELEASE_JSONL, UI_S1_TRAIN_JSONL } from "@/fixtures";
import { objectStoreConfig, type Env } from "../env";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { openScreenshot, readScreenshot, screenshotKey } from "./screenshots";
import { blankPng, freshStudio, uiS1ScreenshotDir, withTextChunk } from "../testing/fixtures";
import { startS3, type LocalS3 } from "../testing/s3rver";
import { checkObjectStoreAtStart, objectStore } from "./store";
import { localStore } from "./local";
import { s3Store } from "./s3";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("object store settings", () => {
  it("keeps screenshots on local disk unless STUDIO_S3_BUCKET is set", () => {
    expect(objectStoreConfig({ STUDIO_DATA_DIR: "/srv/studio" })).toEqual({ kind: "local", root: "/srv/studio" });
    expect(objectStoreConfig({ STUDIO_S3_BUCKET: "shots", STUDIO_S3_ENDPOINT: "http://minio:9000/", STUDIO_S3_PREFIX: "team/a" })).toEqual({
      kind: "s3",
      bucket: "shots",
      endpoint: "http://minio:9000",
      region: "us-east-1",
      prefix: "team/a/",
      forcePathStyle: true,
    });
    // AWS itself: virtual-hosted style, the region from the standard variable.
    expect(objectStoreConfig({ STUDIO_S3_BUCKET: "shots", AWS_REGION: "eu-west-1" })).toMatchObject({
      region: "eu-west-1",
      forcePathStyle: false,
      endpoint: undefined,
    });
    expect(
      objectStoreConfig({ STUDIO_S3_BUCKET: "shots", STUDIO_S3_ENDPOINT: "https://s3.example", STUDIO_S3_FORCE_PATH_STYLE: "false" }),
    ).toMatchObject({ forcePathStyle: false });
  });

  it("refuses a wrong setting with a message naming the variable", () => {
    const bad: [Env, RegExp][] = [
      [{ STUDIO_S3_ENDPOINT: "http://minio:9000" }, /^STUDIO_S3_BUCKET: must be set when STUDIO_S3_ENDPOINT is/],
      [{ STUDIO_S3_BUCKET: "Bad_Name" }, /^STUDIO_S3_BUCKET: "Bad_Name" is not a bucket name/],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_ENDPOINT: "minio:9000" }, /^STUDIO_S3_ENDPOINT: must be an http/],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_ENDPOINT: "not a url" }, /^STUDIO_S3_ENDPOINT: "not a url" is not a URL/],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_REGION: "EU West" }, /^STUDIO_S3_REGION: "EU West" is not a region/],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_PREFIX: "../up" }, /^STUDIO_S3_PREFIX: /],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_PREFIX: "/abs" }, /^STUDIO_S3_PREFIX: /],
      [{ STUDIO_S3_BUCKET: "shots", STUDIO_S3_FORCE_PATH_STYLE: "maybe" }, /^STUDIO_S3_FORCE_PATH_STYLE: must be true or false/],
      [{ STUDIO_S3_BUCKET: "shots", AWS_ACCESS_KEY_ID: "k" }, /^AWS_SECRET_ACCESS_KEY: must be set when AWS_ACCESS_KEY_ID is/],
    ];
    for (const [env, message] of bad) expect(() => objectStoreConfig(env), JSON.stringify(env)).toThrow(message);
  });
});

describe("local folder store (the default)", () => {
  it("keeps objects as files under the data dir, hard-links them out, and says when one is missing", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "local-store-"));
    const store = localStore(root);
    await store.check();
    await store.putBytes("variants/ab/x.webp", new Uint8Array([1, 2, 3]), "image/webp");
    expect(readFileSync(path.join(root, "variants", "ab", "x.webp"))).toEqual(Buffer.from([1, 2, 3]));
    expect(await store.exists("variants/ab/x.webp")).toBe(true);
    const opened = (await store.open("variants/ab/x.webp"))!;
    expect(opened.size).toBe(3);
    expect(new Uint8Array(await new Response(opened.body).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const out = path.join(root, "out.webp");
    expect(await store.copyToFile("variants/ab/x.webp", out)).toBe(true);
    expect(statSync(out).ino).toBe(statSync(path.join(root, "variants", "ab", "x.webp")).ino);
    // Never over a file already there (an export finds what it placed by trying).
    writeFileSync(path.join(root, "taken.webp"), "mine");
    await expect(store.copyToFile("variants/ab/x.webp", path.join(root, "taken.webp"))).rejects.toMatchObject({ code: "EEXIST" });
    expect(readFileSync(path.join(root, "taken.webp"), "utf8")).toBe("mine");
    expect(await store.exists("variants/ab/none.webp")).toBe(false);
    expect(await store.open("variants/ab/none.webp")).toBeNull();
    expect(await store.read("variants/ab/none.webp")).toBeNull();
    expect(await store.copyToFile("variants/ab/none.webp", path.join(root, "none.webp"))).toBe(false);
  });
});

describe("S3-compatible store (s3rver)", () => {
  let s3: LocalS3;
  const saved = { ...process.env };
  beforeAll(async () => {
    s3 = await startS3({ prefix: "studio/test" });
  });
  afterAll(async () => {
    process.env = saved;
    await s3.stop();
  });

  it("stores, streams, reads and copies objects under the prefix, and says when one is missing", async () => {
    const config = objectStoreConfig(s3.env);
    if (config.kind !== "s3") throw new Error("expected the S3 store");
    const store = s3Store(config);
    await store.check();
    const dir = await mkdtemp(path.join(os.tmpdir(), "s3-store-"));
    const file = path.join(dir, "a.png");
    const bytes = await sharp({ create: { width: 40, height: 80, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    await writeFile(file, bytes);
    expect(await store.exists("screenshots/ab/a.png")).toBe(false);
    await store.putFile("screenshots/ab/a.png", file, "image/png");
    expect(await store.exists("screenshots/ab/a.png")).toBe(true);
    // The key sits under the prefix in the bucket (s3rver keeps objects as files named by key).
    expect(existsSync(path.join(s3.directory, s3.bucket, "studio", "test", "screenshots", "ab", "a.png._S3rver_object"))).toBe(true);
    const opened = (await store.open("screenshots/ab/a.png"))!;
    expect(opened.size).toBe(bytes.length);
    expect(sha(new Uint8Array(await new Response(opened.body).arrayBuffer()))).toBe(sha(bytes));
    expect(sha((await store.read("screenshots/ab/a.png"))!)).toBe(sha(bytes));
    expect(await store.copyToFile("screenshots/ab/a.png", path.join(dir, "copy.png"))).toBe(true);
    expect(sha(readFileSync(path.join(dir, "copy.png")))).toBe(sha(bytes));
    await expect(store.copyToFile("screenshots/ab/a.png", path.join(dir, "copy.png"))).rejects.toMatchObject({ code: "EEXIST" });
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(await store.open("screenshots/ab/none.png")).toBeNull();
    expect(await store.read("screenshots/ab/none.png")).toBeNull();
    expect(await store.copyToFile("screenshots/ab/none.png", path.join(dir, "none.png"))).toBe(false);
    expect(existsSync(path.join(dir, "none.png"))).toBe(false);
  });

  it("fails at start-up naming the setting: a missing bucket, an unreachable endpoint, no shared secret", async () => {
    const env = { ...s3.env, BETTER_AUTH_SECRET: "x".repeat(32) };
    await expect(checkObjectStoreAtStart({ ...env, STUDIO_S3_BUCKET: "no-such-bucket" })).rejects.toThrow(
      /^STUDIO_S3_BUCKET: bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+/,
    );
    await expect(checkObjectStoreAtStart({ ...env, STUDIO_S3_ENDPOINT: "http://127.0.0.1:9" })).rejects.toThrow(
      /^STUDIO_S3_ENDPOINT: cannot reach the S3 store at http:\/\/127\.0\.0\.1:9/,
    );
    await expect(checkObjectStoreAtStart(s3.env)).rejects.toThrow(/^BETTER_AUTH_SECRET: must be set when screenshots are in an S3 bucket/);
    await expect(checkObjectStoreAtStart(env)).resolves.toMatch(/^S3 bucket studio-test \(prefix studio\/test\/\) at http/);
  });

  it("imports screenshots into the bucket, serves both variants from it and exports them from it", async () => {
    const studio = await freshStudio();
    Object.assign(process.env, s3.env);
    const images = await uiS1ScreenshotDir(UI_S1_TRAIN_JSONL);
    expect(await importFile({ file: UI_S1_TRAIN_JSONL, format: "ui-s1", screenshotsDir: images, db: studio.db })).toMatchObject({
      ok: true,
    });
    // Nothing lands in the data dir: every original is in the bucket.
    expect(existsSync(path.join(studio.dir, "screenshots"))).toBe(false);
    const step = await studio.db.step.findFirstOrThrow({ include: { screenshot: true } });
    expect(await objectStore().exists(screenshotKey(step.screenshotSha, step.screenshot.mime))).toBe(true);
    const original = await readScreenshot(step.screenshotSha, step.screenshot.mime, "original");
    expect(sha(original.bytes)).toBe(step.screenshotSha);
    const display = await openScreenshot(step.screenshotSha, step.screenshot.mime, "display");
    expect(display.contentType).toBe("image/webp");
    const meta = await sharp(Buffer.from(await new Response(display.body).arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp" });
    expect(existsSync(path.join(studio.dir, "variants"))).toBe(false);

    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "s3-export-")), "ds");
    const summary = await exportDataset({ outDir: out, status: "all", db: studio.db });
    const files = readdirSync(path.join(out, "screenshots"));
    expect(files.length).toBe(await studio.db.screenshot.count());
    expect(summary.trajectories).toBe(32);
    const exported = readFileSync(path.join(out, "screenshots", `${step.screenshotSha}.png`));
    expect(sha(exported)).toBe(step.screenshotSha);
  });

  it("exports the Mobile-R1 release from the bucket under its own image names, and a name two screenshots share under the sha256", async () => {
    const studio = await freshStudio();
    Object.assign(process.env, s3.env);
    expect(await importFile({ file: MOBILE_R1_RELEASE_JSONL, format: "mobile-r1", db: studio.db })).toMatchObject({ ok: true });
    // Another batch reuses the name r1_0001_0.png for other pixels, and names the fixture's r1_0001_1.png r1_copy.png.
    const other = path.join(studio.dir, "other");
    await mkdir(path.join(other, "images"), { recursive: true });
    const png = withTextChunk(await blankPng(1080, 2400, "#202020"), "Title", "other");
    await writeFile(path.join(other, "images", "r1_0001_0.png"), png);
    await writeFile(path.join(other, "images", "r1_copy.png"), readFileSync(path.join(MOBILE_R1_RELEASE_IMAGES, "r1_0001_1.png")));
    const first = JSON.parse(readFileSync(MOBILE_R1_RELEASE_JSONL, "utf8").split("\n")[0]!) as { trajectory: Record<string, unknown>[] };
    const row = {
      ...first,
      instruction: "另一个任务",
      trajectory: [first.trajectory[0], { ...first.trajectory[1], image: "r1_copy.png" }],
    };
    await writeFile(path.join(other, "data.jsonl"), `${JSON.stringify(row)}\n`);
    expect(await importFile({ file: path.join(other, "data.jsonl"), format: "mobile-r1", db: studio.db })).toMatchObject({ ok: true });

    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "s3-export-r1-")), "ds");
    await exportDataset({ outDir: out, status: "all", db: studio.db });
    const rows = readFileSync(path.join(out, "mobile-r1", "data.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { instruction: string; trajectory: { image: string }[] });
    const mine = rows.find((r) => r.instruction === "另一个任务")!;
    expect(mine.trajectory.map((t) => t.image)).toEqual([`${sha(png)}.png`, "r1_copy.png"]);
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as { files: Record<string, string> };
    // Every image a row names is there with the bytes the manifest lists, and each is listed.
    for (const r of rows)
      for (const t of r.trajectory) {
        const rel = `mobile-r1/images/${t.image}`;
        expect(manifest.files[rel], rel).toBe(sha(readFileSync(path.join(out, rel))));
      }
    expect(manifest.files["mobile-r1/images/r1_copy.png"]).toBe(manifest.files["mobile-r1/images/r1_0001_1.png"]);
  });
});
