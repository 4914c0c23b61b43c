import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { DEMO_ACCOUNTS } from "./accounts";
import { makeUiS1Zip } from "./datasets";

// Issue 13, "many machines": two studio instances (the production build, each with its own data dir)
// on one PostgreSQL and one S3-compatible bucket (s3rver) behave as one studio. A session made on one
// is good on the other; a stale save on one is refused after the other saved; a screenshot imported
// through one is served by the other; an export started on one is reported by the other.
// Skipped where PostgreSQL is not installed (scripts/test-all.mjs installs it on CI).

type Services = { postgres: false } | { postgres: true; databaseUrl: string; s3Directory: string; s3Env: Record<string, string> };
type Instance = { url: string; dataDir: string; child: ChildProcess; log: string[] };

const ROOT = path.resolve(import.meta.dirname, "..");
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const SECRET = randomBytes(32).toString("base64url");
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

let services: ChildProcess | undefined;
let shared: Services = { postgres: false };
const instances: Instance[] = [];

function studioEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  if (!shared.postgres) throw new Error("no PostgreSQL");
  return {
    ...process.env,
    ...shared.s3Env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: shared.databaseUrl,
    STUDIO_DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: SECRET,
    BETTER_AUTH_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    STUDIO_SIGN_IN_PER_MINUTE: "1000",
    STUDIO_DEMO_TRAJECTORIES: "4",
  };
}

async function startInstance(port: number): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `studio-team-${port}-`));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: studioEnv(dataDir, port),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) createInterface({ input: s }).on("line", (l) => log.push(l));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited (${child.exitCode}):\n${log.join("\n")}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 240) throw new Error(`instance on ${port} did not answer in 60 s:\n${log.join("\n")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, dataDir, child, log };
}

async function signIn(baseURL: string, role: "admin" | "annotator"): Promise<APIRequestContext> {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role)!;
  const ctx = await playwrightRequest.newContext({ baseURL });
  const res = await ctx.post("/api/auth/sign-in/email", {
    data: { email: account.email, password: account.password },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

/** The same signed-in session (its cookies), talking to another instance. */
async function sameSessionOn(ctx: APIRequestContext, baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: await ctx.storageState() });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  services = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/team-services.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  shared = await new Promise<Services>((resolve, reject) => {
    createInterface({ input: services!.stdout! }).once("line", (l) => resolve(JSON.parse(l) as Services));
    services!.on("exit", (code) => reject(new Error(`team services exited (${code}) before starting`)));
  });
  if (!shared.postgres) return;
  // Migrate and seed the shared database once (the demo's screenshots go to the bucket), as an operator would.
  const setup = spawnSync(process.execPath, ["scripts/studio.mjs", "setup-demo"], {
    cwd: ROOT,
    env: studioEnv(mkdtempSync(path.join(os.tmpdir(), "studio-team-setup-")), BASE_PORT + 1),
    encoding: "utf8",
  });
  expect(setup.status, setup.stderr).toBe(0);
  instances.push(...(await Promise.all([startInstance(BASE_PORT + 1), startInstance(BASE_PORT + 2)])));
});

test.afterAll(async () => {
  for (const i of instances) i.child.kill("SIGTERM");
  await Promise.all(instances.map((i) => new Promise((r) => (i.child.exitCode !== null ? r(null) : i.child.on("exit", r)))));
  services?.kill("SIGTERM");
});

test.beforeEach(() => {
  test.skip(!shared.postgres, "PostgreSQL is not installed (/usr/lib/postgresql/15/bin); scripts/test-all.mjs installs it as root");
});

test("a session made on one instance is good on the other @storage", async () => {
  const [a, b] = instances;
  const onA = await signIn(a!.url, "admin");
  const onB = await sameSessionOn(onA, b!.url);
  const me = await onB.get("/api/me");
  expect(me.status(), await me.text()).toBe(200);
  expect(((await me.json()) as { person: { email: string } }).person.email).toBe("admin@studio.local");
});

test("a stale save on one instance is refused after the other saved @storage", async () => {
  const [a, b] = instances;
  const onA = await signIn(a!.url, "annotator");
  const onB = await sameSessionOn(onA, b!.url);
  const next = await onA.post("/api/tasks/next", { headers: { origin: a!.url } });
  expect(next.status(), await next.text()).toBe(200);
  const { id } = (await next.json()) as { id: string };
  type Step = { id: string; version: number; thought: object; clearAction: string; toolCall: object; box: object | null; verdict: string };
  const read = async (ctx: APIRequestContext) =>
    (await (await ctx.get(`/api/trajectories/${id}`)).json()) as { version: number; steps: Step[] };
  const [seenByA, seenByB] = [await read(onA), await read(onB)];
  const step = seenByA.steps[0]!;
  expect(seenByB.steps[0]!.version).toBe(step.version);

  const { thought, toolCall, box, verdict } = step;
  const body = (clearAction: string) => ({ data: { thought, clearAction, toolCall, box, verdict, version: step.version } });
  const saved = await onB.put(`/api/steps/${step.id}/annotation`, { ...body("Saved on B"), headers: { origin: b!.url } });
  expect(saved.status(), await saved.text()).toBe(200);
  const stale = await onA.put(`/api/steps/${step.id}/annotation`, { ...body("Stale on A"), headers: { origin: a!.url } });
  expect(stale.status(), await stale.text()).toBe(409);
  // A sees B's save, and nothing of its own refused one.
  expect((await read(onA)).steps[0]!.clearAction).toBe("Saved on B");

  // The trajectory's own version is checked the same way across instances.
  const tr = (v: number, url: string) => ({
    data: { outcome: null, isDiscarded: false, cutAfter: null, version: v },
    headers: { origin: url },
  });
  expect((await onA.put(`/api/trajectories/${id}/annotation`, tr(seenByA.version, a!.url))).status()).toBe(200);
  expect((await onB.put(`/api/trajectories/${id}/annotation`, tr(seenByB.version, b!.url))).status()).toBe(409);
});

test("a screenshot imported through one instance is served by the other, from the bucket @storage", async () => {
  if (!shared.postgres) return;
  const [a, b] = instances;
  const onA = await signIn(a!.url, "admin");
  const onB = await sameSessionOn(onA, b!.url);
  const goal = `Team import ${Date.now()}`;
  const zip = await makeUiS1Zip(test.info().outputPath("zip"), goal);
  const imported = await onA.post("/api/imports", {
    headers: { origin: a!.url },
    multipart: { format: "ui-s1", files: { name: "batch.zip", mimeType: "application/zip", buffer: readFileSync(zip) } },
  });
  expect(imported.status(), await imported.text()).toBe(202);
  // The import runs on A; B follows it (the job is a row both read) until it is done.
  const { job } = (await imported.json()) as { job: { id: string } };
  await expect
    .poll(async () => ((await (await onB.get(`/api/imports/${job.id}`)).json()) as { job: { state: string } }).job.state, {
      timeout: 60_000,
    })
    .toBe("succeeded");

  const list = (await (await onB.get(`/api/trajectories?q=${encodeURIComponent(goal)}`)).json()) as { rows: { id: string }[] };
  expect(list.rows).toHaveLength(1);
  const t = (await (await onB.get(`/api/trajectories/${list.rows[0]!.id}`)).json()) as {
    steps: { screenshot: { sha256: string; width: number } }[];
  };
  const shot = t.steps[0]!.screenshot;
  const original = await onB.get(`/api/screenshots/${shot.sha256}?variant=original`);
  expect(original.status()).toBe(200);
  expect(original.headers()["content-type"]).toBe("image/png");
  expect(original.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");
  const bytes = await original.body();
  expect(sha256(bytes)).toBe(shot.sha256);
  const display = await onB.get(`/api/screenshots/${shot.sha256}?variant=display`);
  expect(display.status()).toBe(200);
  expect(display.headers()["content-type"]).toBe("image/webp");
  // The display variant B made is in the bucket too: A serves the same bytes.
  const displayOnA = await onA.get(`/api/screenshots/${shot.sha256}?variant=display`);
  expect(sha256(await displayOnA.body())).toBe(sha256(await display.body()));

  // Neither instance keeps screenshots on its own disk; the bucket holds them under their content address.
  for (const i of instances) {
    expect(existsSync(path.join(i.dataDir, "screenshots")), i.dataDir).toBe(false);
    expect(existsSync(path.join(i.dataDir, "variants")), i.dataDir).toBe(false);
  }
  const bucketDir = path.join(shared.s3Directory, shared.s3Env.STUDIO_S3_BUCKET!, "screenshots", shot.sha256.slice(0, 2));
  expect(readdirSync(bucketDir).some((n) => n.startsWith(`${shot.sha256}.png`))).toBe(true);
});

test("an export started on one instance is reported by the other, with the screenshots from the bucket @storage", async () => {
  if (!shared.postgres) return;
  const [a, b] = instances;
  const onA = await signIn(a!.url, "admin");
  const onB = await sameSessionOn(onA, b!.url);
  const started = await onA.post("/api/exports", { data: { status: "all" }, headers: { origin: a!.url } });
  expect(started.status(), await started.text()).toBe(202);
  const { export: job } = (await started.json()) as { export: { id: string; outDir: string } };

  const seenByB = await onB.get("/api/exports");
  expect(seenByB.status()).toBe(200);
  expect(((await seenByB.json()) as { exports: { id: string }[] }).exports.map((e) => e.id)).toContain(job.id);
  let report: { state: string; counts: { trajectories: number } | null; error: string | null } | undefined;
  await expect
    .poll(
      async () => {
        report = ((await (await onB.get(`/api/exports/${job.id}`)).json()) as { export: typeof report }).export;
        return report!.state;
      },
      { timeout: 120_000 },
    )
    .toBe("succeeded");
  expect(report!.counts!.trajectories).toBeGreaterThan(0);
  // A wrote the folder (in its own data dir): every screenshot came out of the bucket.
  expect(job.outDir.startsWith(a!.dataDir)).toBe(true);
  expect(readdirSync(path.join(job.outDir, "screenshots")).length).toBeGreaterThan(0);
});

test("an instance with a wrong store setting does not start, and names the variable @storage", async () => {
  if (!shared.postgres) return;
  const port = BASE_PORT + 3;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: { ...studioEnv(mkdtempSync(path.join(os.tmpdir(), "studio-team-bad-")), port), STUDIO_S3_BUCKET: "no-such-bucket" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) createInterface({ input: s }).on("line", (l) => log.push(l));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(1);
  expect(log.join("\n")).toMatch(
    /studio: cannot start: STUDIO_S3_BUCKET: bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+/,
  );
});
