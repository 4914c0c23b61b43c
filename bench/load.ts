// The API under a team's load: 32 connections for 30 s each against a running production server,
// for GET /api/health (the lower bound: routing, no session, no database), the editor's trajectory
// read (GET /api/trajectories/:id), the editor's step save (PUT /api/steps/:id/annotation, with its
// version check), the trajectory list sorted by every column and filtered (GET /api/trajectories),
// and the dashboard's aggregates (GET /api/dashboard). Each figure: p50/p95/p99, throughput, errors,
// and its p95 and throughput as ratios to /api/health in the same run (this machine's load drifts,
// so only same-run ratios compare). The load comes from autocannon; the percentiles are computed
// here from every response's own time (autocannon's histogram has no p95).
//
// On its own: `npx tsx bench/load.ts [--steps 100000] [--connections 32] [--duration 30] [--skip-build] [--reuse] [--workers N] [--only read,save]`
// makes a studio of that many steps in bench/out/load (a small dataset through the real import,
// then its rows copied in SQL until there are enough), builds into .next-bench (or reuses that build
// with --skip-build), starts `next start` with STUDIO_SERVER_TIMING=1 (per-stage timings), runs,
// prints a table and writes bench/out/load.json. From the bench runner: runLoadBench({ baseUrl, databaseUrl }).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { createDb, loadDialect, type Db } from "@/lib/server/db";
import { databaseUrl, dialectOf } from "@/lib/server/env";
import { migrate } from "@/lib/server/db/migrate";
import { createUser } from "@/lib/server/people";
import { SYSTEM_ACTOR } from "@/lib/server/people/audit";
import { mobileR1Dataset } from "@/lib/server/testing/dataset";

const ROOT = path.resolve(import.meta.dirname, "..");

/** One measured workload. Latencies in ms as the client saw them (connect excluded: connections are kept alive). */
export type Figure = {
  name: string;
  method: string;
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  /** Answered requests per second. */
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Non-2xx answers (409s excluded for saves), socket errors and timeouts. */
  errors: number;
  /** Saves refused with 409 (stale version); the workload keeps its versions fresh, so these should be 0. */
  conflicts: number;
  errorSamples: string[];
  /** p95 / the same run's /api/health p95, and throughput / its throughput. */
  p95Ratio: number;
  throughputRatio: number;
  /** Median server time per stage (ms), from the Server-Timing header where the server sends one. */
  stages?: Record<string, { p50: number; p95: number }>;
  target?: { p95Ms: number; errors: number };
  met?: boolean;
};

export type LoadBenchOptions = {
  baseUrl: string;
  /** The studio's database (the bench creates its people and assigns them work there). Default: DATABASE_URL. */
  databaseUrl?: string;
  connections?: number;
  durationSeconds?: number;
  /** How many annotators share the load (each has their own session cookie). */
  annotators?: number;
  /** Only these workloads (the health lower bound always runs): read, save, list, dashboard. Default: all. */
  only?: readonly WorkloadKey[];
  log?: (line: string) => void;
};

export const WORKLOAD_KEYS = ["read", "save", "list", "dashboard"] as const;
export type WorkloadKey = (typeof WORKLOAD_KEYS)[number];

export const TARGETS = { read: 25, save: 50, list: 50, dashboard: 100 } as const;

const PASSWORD = "bench-load-password";
const SORTS = ["app", "instruction", "steps", "status", "outcome", "assignee", "source"] as const;

type StepState = {
  id: string;
  version: number;
  thought: { state: string; nextAction: string; purpose: string; text: string };
  rest: Record<string, unknown>;
};

function quantile(sorted: number[], f: number): number {
  if (sorted.length === 0) return 0;
  return +sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!.toFixed(1);
}

async function signIn(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  if (cookies.length === 0) throw new Error(`sign-in as ${email}: no session cookie`);
  return cookies.join("; ");
}

/** The bench's people (created once, with a known password) and their work. */
async function preparePeople(prisma: Db, annotators: number) {
  const ensure = async (email: string, role: "annotator" | "reviewer") => {
    const found = await prisma.user.findUnique({ where: { email } });
    if (found) return found.id;
    return (await createUser({ actor: SYSTEM_ACTOR, email, role, password: PASSWORD, name: email.split("@")[0] }, prisma)).person.id;
  };
  const reviewer = { email: "bench-load-reviewer@studio.local", id: await ensure("bench-load-reviewer@studio.local", "reviewer") };
  const people: { email: string; id: string }[] = [];
  for (let i = 0; i < annotators; i++) {
    const email = `bench-load-annotator-${i}@studio.local`;
    people.push({ email, id: await ensure(email, "annotator") });
  }
  return { reviewer, people };
}

type Workload = {
  key: WorkloadKey | "health";
  name: string;
  method: "GET" | "PUT";
  path: string;
  /** The next request for connection `slot`. */
  next: (slot: number) => { path: string; headers: Record<string, string>; body?: string; stepId?: string };
  /** Called with every answer (saves keep their versions fresh). */
  answered?: (slot: number, status: number, body: string, stepId?: string) => void;
  isConflict?: (status: number) => boolean;
  target?: number;
};

async function measure(
  baseUrl: string,
  w: Workload,
  connections: number,
  duration: number,
): Promise<Omit<Figure, "p95Ratio" | "throughputRatio">> {
  const samples: number[] = [];
  const stageSamples = new Map<string, number[]>();
  const errorSamples = new Set<string>();
  let errors = 0;
  let conflicts = 0;
  let nextSlot = 0;
  const host = new URL(baseUrl).host;
  let finished!: (r: autocannon.Result) => void;
  let failed!: (e: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: baseUrl,
      connections,
      duration,
      pipelining: 1,
      timeout: 10,
      requests: [
        {
          method: w.method,
          setupRequest: (_req, context) => {
            const ctx = context as { slot?: number; stepId?: string };
            ctx.slot ??= nextSlot++ % connections;
            const r = w.next(ctx.slot);
            ctx.stepId = r.stepId;
            // Headers given here replace autocannon's defaults, Host included (the same-origin check reads it).
            return { method: w.method, path: r.path, headers: { host, ...r.headers }, ...(r.body !== undefined ? { body: r.body } : {}) };
          },
          onResponse: (status, body, context, headers) => {
            const ctx = context as { slot: number; stepId?: string };
            w.answered?.(ctx.slot, status, body, ctx.stepId);
            if (w.isConflict?.(status)) conflicts += 1;
            else if (status < 200 || status >= 300) {
              errors += 1;
              if (errorSamples.size < 5) errorSamples.add(`${status} ${body.slice(0, 200)}`);
            }
            const timing = (headers as Record<string, string> | undefined)?.["server-timing"];
            if (timing) {
              for (const part of timing.split(",")) {
                const m = part.trim().match(/^([\w-]+);dur=([\d.]+)/);
                if (!m) continue;
                const list = stageSamples.get(m[1]!) ?? [];
                list.push(Number(m[2]));
                stageSamples.set(m[1]!, list);
              }
            }
          },
        },
      ],
    },
    (err, result) => (err ? failed(err) : finished(result)),
  );
  instance.on("response", (_client, _status, _bytes, responseTime) => samples.push(responseTime));
  const result = await done;
  errors += result.errors + result.timeouts;
  if (result.errors + result.timeouts > 0) errorSamples.add(`${result.errors} socket errors, ${result.timeouts} timeouts`);
  samples.sort((a, b) => a - b);
  const stages =
    stageSamples.size > 0
      ? Object.fromEntries(
          [...stageSamples].map(([name, list]) => {
            list.sort((a, b) => a - b);
            return [name, { p50: quantile(list, 0.5), p95: quantile(list, 0.95) }];
          }),
        )
      : undefined;
  const seconds = result.duration || duration; // autocannon reports seconds
  return {
    name: w.name,
    method: w.method,
    path: w.path,
    connections,
    seconds: +seconds.toFixed(1),
    requests: samples.length,
    throughput: +(samples.length / seconds).toFixed(1),
    p50: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    p99: quantile(samples, 0.99),
    max: quantile(samples, 1),
    errors,
    conflicts,
    errorSamples: [...errorSamples],
    ...(stages ? { stages } : {}),
    ...(w.target !== undefined ? { target: { p95Ms: w.target, errors: 0 } } : {}),
  };
}

/**
 * Run every workload against the server at `baseUrl` and return its figures, /api/health first.
 * The studio must hold trajectories; the bench adds its own people (bench-load-*) and assigns
 * each annotator a share of the trajectories.
 */
export async function runLoadBench(opts: LoadBenchOptions): Promise<Figure[]> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const connections = opts.connections ?? 32;
  const duration = opts.durationSeconds ?? 30;
  const annotators = opts.annotators ?? 8;
  const baseUrl = opts.baseUrl.replace(/\/$/, "");
  const url = opts.databaseUrl ?? databaseUrl();
  await loadDialect(dialectOf(url));
  const prisma = createDb(url);
  try {
    const { reviewer, people } = await preparePeople(prisma, annotators);
    // Each annotator gets their own trajectories (editable: new or in progress), and each of the
    // connections one annotator and its own steps, so saves on different connections never touch
    // the same step: a 409 would be a real lost update, not the workload tripping over itself.
    const perAnnotator = Math.max(2, Math.ceil(connections / annotators) * 4);
    const pool = await prisma.trajectory.findMany({
      where: { status: { in: ["new", "in_progress"] } },
      orderBy: { id: "asc" },
      take: perAnnotator * annotators,
      select: { id: true },
    });
    if (pool.length < annotators * 2) throw new Error(`the studio has ${pool.length} editable trajectories; ${annotators * 2} needed`);
    const owned = people.map((_, i) => pool.filter((_, j) => j % annotators === i).map((t) => t.id));
    for (const [i, ids] of owned.entries()) {
      await prisma.trajectory.updateMany({ where: { id: { in: ids } }, data: { assigneeId: people[i]!.id, status: "in_progress" } });
    }
    const cookies: string[] = [];
    for (const p of people) cookies.push(await signIn(baseUrl, p.email));
    const reviewerCookie = await signIn(baseUrl, reviewer.email);

    // The steps each connection saves: its annotator's steps, dealt out among that annotator's connections.
    const steps = new Map<string, StepState[]>();
    for (const [i, ids] of owned.entries()) {
      const rows = await prisma.step.findMany({
        where: { trajectoryId: { in: ids } },
        orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
      });
      steps.set(
        people[i]!.email,
        rows.map((s) => ({
          id: s.id,
          version: s.version,
          thought: { state: s.thoughtState, nextAction: s.thoughtNext, purpose: s.thoughtPurpose, text: s.thought },
          rest: {
            clearAction: s.clearAction,
            toolCall: JSON.parse(s.toolCallJson) as unknown,
            box: s.boxJson ? (JSON.parse(s.boxJson) as unknown) : null,
            verdict: s.verdict,
          },
        })),
      );
    }
    const annotatorOf = (slot: number) => slot % annotators;
    const slotSteps = (slot: number): StepState[] => {
      const all = steps.get(people[annotatorOf(slot)]!.email)!;
      const share = Math.floor(slot / annotators);
      const shares = Math.ceil(connections / annotators);
      return all.filter((_, j) => j % shares === share);
    };
    const stepsBySlot = Array.from({ length: connections }, (_, slot) => slotSteps(slot));
    const byId = new Map(stepsBySlot.flat().map((s) => [s.id, s]));
    const turn = new Array<number>(connections).fill(0);
    const pick = <T>(slot: number, list: T[]): T => list[turn[slot]!++ % list.length]!;
    const edits = new Array<number>(connections).fill(0);

    const listQueries: string[] = [];
    const apps = (await prisma.trajectory.groupBy({ by: ["app"], orderBy: { app: "asc" } })).map((r) => r.app);
    for (const sort of SORTS) {
      for (const dir of ["asc", "desc"]) {
        listQueries.push(`sort=${sort}&dir=${dir}`);
        listQueries.push(`sort=${sort}&dir=${dir}&page=3`);
        listQueries.push(`sort=${sort}&dir=${dir}&status=submitted`);
        listQueries.push(`sort=${sort}&dir=${dir}&app=${encodeURIComponent(apps[listQueries.length % apps.length] ?? "")}`);
      }
    }
    listQueries.push("q=settings", "assignee=none&sort=app&dir=desc", `assignee=${encodeURIComponent(people[0]!.email)}`);

    const all: Workload[] = [
      {
        key: "health",
        name: "GET /api/health (lower bound)",
        method: "GET",
        path: "/api/health",
        next: () => ({ path: "/api/health", headers: {} }),
      },
      {
        key: "read",
        name: "trajectory read (editor opens a trajectory)",
        method: "GET",
        path: "/api/trajectories/:id",
        target: TARGETS.read,
        next: (slot) => ({
          path: `/api/trajectories/${pick(slot, owned[annotatorOf(slot)]!)}`,
          headers: { cookie: cookies[annotatorOf(slot)]! },
        }),
      },
      {
        key: "save",
        name: "step save (editor autosave, version checked)",
        method: "PUT",
        path: "/api/steps/:id/annotation",
        target: TARGETS.save,
        next: (slot) => {
          const s = pick(slot, stepsBySlot[slot]!);
          const text = `${s.thought.text.replace(/ \(load edit \d+\)$/, "")} (load edit ${++edits[slot]!})`;
          return {
            path: `/api/steps/${s.id}/annotation`,
            headers: { cookie: cookies[annotatorOf(slot)]!, origin: baseUrl, "content-type": "application/json" },
            body: JSON.stringify({ version: s.version, thought: { ...s.thought, text }, ...s.rest }),
            stepId: s.id,
          };
        },
        answered: (_slot, status, body, stepId) => {
          const s = stepId ? byId.get(stepId) : undefined;
          if (!s) return;
          try {
            const parsed = JSON.parse(body) as { version?: number; error?: { issues?: { current?: { version?: number } } } };
            const version = status === 200 ? parsed.version : parsed.error?.issues?.current?.version;
            if (typeof version === "number") s.version = version;
          } catch {
            // counted as an error by its status
          }
        },
        isConflict: (status) => status === 409,
      },
      {
        key: "list",
        name: "trajectory list (sorted by each column, filtered)",
        method: "GET",
        path: "/api/trajectories?sort=…",
        target: TARGETS.list,
        next: (slot) => ({ path: `/api/trajectories?${pick(slot, listQueries)}`, headers: { cookie: reviewerCookie } }),
      },
      {
        key: "dashboard",
        name: "dashboard aggregates",
        method: "GET",
        path: "/api/dashboard",
        target: TARGETS.dashboard,
        next: () => ({ path: "/api/dashboard", headers: { cookie: reviewerCookie } }),
      },
    ];

    const workloads = all.filter((w) => w.key === "health" || !opts.only || opts.only.includes(w.key));

    // A short warm-up (Next compiles nothing in production, but the first requests fill caches).
    for (const w of workloads)
      for (let i = 0; i < 5; i++) {
        const r = w.next(i % connections);
        await fetch(`${baseUrl}${r.path}`, { method: w.method, headers: r.headers, body: r.body }).then(async (res) =>
          w.answered?.(i % connections, res.status, await res.text(), r.stepId),
        );
      }

    const raw = [];
    for (const w of workloads) {
      log(`  ${w.name}: ${connections} connections × ${duration} s …`);
      raw.push(await measure(baseUrl, w, connections, duration));
    }
    // The list and the dashboard one request at a time too: what one person waits, without the queue.
    const alone = Math.max(5, Math.round(duration / 3));
    for (const w of workloads.filter((w) => w.key === "list" || w.key === "dashboard")) {
      log(`  ${w.name}, one connection × ${alone} s …`);
      raw.push(await measure(baseUrl, { ...w, name: `${w.name}, 1 connection` }, 1, alone));
    }
    const health = raw[0]!;
    return raw.map((f) => {
      const fig: Figure = {
        ...f,
        p95Ratio: +(f.p95 / Math.max(0.1, health.p95)).toFixed(2),
        throughputRatio: +(f.throughput / Math.max(0.1, health.throughput)).toFixed(2),
      };
      if (f.target) fig.met = f.errors === 0 && f.conflicts === 0 && f.p95 <= f.target.p95Ms;
      return fig;
    });
  } finally {
    await prisma.$disconnect();
  }
}

export function formatFigures(figures: Figure[]): string {
  const head = `${"workload".padEnd(50)} ${"req/s".padStart(7)} ${"× hlth".padStart(7)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"× hlth".padStart(7)} ${"p99".padStart(7)} ${"errors".padStart(6)} ${"409".padStart(5)}  target`;
  const rows = figures.map(
    (f) =>
      `${f.name.padEnd(50)} ${f.throughput.toFixed(0).padStart(7)} ${f.throughputRatio.toFixed(2).padStart(7)} ${f.p50.toFixed(1).padStart(7)} ${f.p95.toFixed(1).padStart(7)} ${f.p95Ratio.toFixed(2).padStart(7)} ${f.p99.toFixed(1).padStart(7)} ${String(f.errors).padStart(6)} ${String(f.conflicts).padStart(5)}  ${f.target ? `p95 ≤ ${f.target.p95Ms} ms, 0 errors: ${f.met ? "met" : "NOT met"}` : ""}`,
  );
  const stages = figures
    .filter((f) => f.stages)
    .map(
      (f) =>
        `  ${f.name}: ${Object.entries(f.stages!)
          .map(([n, s]) => `${n} ${s.p50}/${s.p95}`)
          .join(", ")}`,
    );
  return [head, ...rows, ...(stages.length ? ["server time per stage, ms (p50/p95):", ...stages] : [])].join("\n");
}

/** Copy the studio's trajectories (and their steps) in SQL until it holds at least `minSteps` steps. */
function countStudio(file: string): { trajectories: number; steps: number } {
  const sqlite = new Database(file, { readonly: true });
  try {
    const n = (table: string) => (sqlite.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
    return { trajectories: n("Trajectory"), steps: n("Step") };
  } finally {
    sqlite.close();
  }
}

function growStudio(file: string, minSteps: number): { trajectories: number; steps: number } {
  const sqlite = new Database(file);
  try {
    const columns = (table: string) =>
      (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => `"${c.name}"`);
    const count = () => (sqlite.prepare(`SELECT COUNT(*) AS n FROM "Step"`).get() as { n: number }).n;
    const have = count();
    const rounds = Math.max(0, Math.ceil(minSteps / have) - 1);
    // The rows to copy are the ones there before growing (by rowid: an id can itself contain "-c").
    const lastRowid = (table: string) => (sqlite.prepare(`SELECT COALESCE(MAX(rowid), 0) AS n FROM "${table}"`).get() as { n: number }).n;
    const lastTrajectory = lastRowid("Trajectory");
    const lastStep = lastRowid("Step");
    const tCols = columns("Trajectory");
    const sCols = columns("Step");
    const STATUSES = ["new", "in_progress", "submitted", "approved", "rejected"];
    const tValues = (r: number) =>
      tCols.map((c) => {
        switch (c) {
          case `"id"`:
            return `"id" || '-c${r}'`;
          case `"fingerprint"`:
            return `"fingerprint" || '-c${r}'`;
          case `"status"`:
            return `CASE (rowid + ${r}) % 7 WHEN 0 THEN '${STATUSES[2]}' WHEN 1 THEN '${STATUSES[3]}' WHEN 2 THEN '${STATUSES[4]}' WHEN 3 THEN '${STATUSES[1]}' ELSE '${STATUSES[0]}' END`;
          case `"outcome"`:
            return `CASE (rowid + ${r}) % 3 WHEN 0 THEN 'success' WHEN 1 THEN 'failure' ELSE NULL END`;
          case `"createdAt"`:
          case `"updatedAt"`:
            // Stored as ISO text: later copies, each row a second apart, so sorting by time means something.
            return `strftime('%Y-%m-%dT%H:%M:%f+00:00', ${c}, '+' || (${r * 100_000} + rowid) || ' seconds')`;
          default:
            return c;
        }
      });
    const sValues = (r: number) =>
      sCols.map((c) => (c === `"id"` ? `"id" || '-c${r}'` : c === `"trajectoryId"` ? `"trajectoryId" || '-c${r}'` : c));
    sqlite.transaction(() => {
      for (let r = 1; r <= rounds; r++) {
        sqlite.exec(
          `INSERT INTO "Trajectory" (${tCols.join(", ")}) SELECT ${tValues(r).join(", ")} FROM "Trajectory" WHERE rowid <= ${lastTrajectory}`,
        );
        sqlite.exec(`INSERT INTO "Step" (${sCols.join(", ")}) SELECT ${sValues(r).join(", ")} FROM "Step" WHERE rowid <= ${lastStep}`);
      }
    })();
    sqlite.exec("ANALYZE");
    const trajectories = (sqlite.prepare(`SELECT COUNT(*) AS n FROM "Trajectory"`).get() as { n: number }).n;
    return { trajectories, steps: count() };
  } finally {
    sqlite.close();
  }
}

/** Resolves once the server says every worker answers (with one worker, once it answers at all). */
export function allWorkersAnswer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    let seen = "";
    server.stdout?.on("data", (chunk: Buffer) => {
      seen = (seen + chunk.toString("utf8")).slice(-4096);
      const clustered = /starting \d+ studio workers/.test(seen);
      if (clustered ? /all \d+ studio workers answer/.test(seen) : /the studio answers on/.test(seen)) resolve();
    });
  });
}

async function waitForHealth(baseUrl: string, server: ChildProcess, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before answering`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the server did not answer ${baseUrl}/api/health in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      steps: { type: "string", default: "100000" },
      connections: { type: "string", default: "32" },
      duration: { type: "string", default: "30" },
      port: { type: "string", default: "3290" },
      "skip-build": { type: "boolean", default: false },
      // Keep the studio bench/out/load made last time (same --steps) instead of making it again.
      reuse: { type: "boolean", default: false },
      // "next": the API through Next's own request handler instead of the studio's API lane (server/api-lane.ts).
      lane: { type: "string", default: "studio" },
      // Processes serving the port (STUDIO_WORKERS, server/main.ts).
      workers: { type: "string", default: String(os.availableParallelism()) },
      // A comma-separated subset of read, save, list, dashboard (health always runs).
      only: { type: "string" },
    },
  });
  const only = values.only?.split(",").map((k) => k.trim());
  const unknown = only?.filter((k) => !(WORKLOAD_KEYS as readonly string[]).includes(k));
  if (unknown?.length) throw new Error(`--only takes ${WORKLOAD_KEYS.join(", ")}; got ${unknown.join(", ")}`);
  if (values.lane !== "studio" && values.lane !== "next") throw new Error(`--lane must be studio or next, got ${values.lane}`);
  const out = path.join(ROOT, "bench/out");
  const work = path.join(out, "load");
  const dataDir = path.join(work, "studio");
  const dbFile = path.join(dataDir, "studio.db");
  const reuse = values.reuse && existsSync(dbFile);
  if (!reuse) {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
  }
  const databaseUrl = `file:${dbFile}`;
  const port = values.port!;
  const baseUrl = `http://127.0.0.1:${port}`;
  const distDir = process.env.STUDIO_DIST_DIR || ".next-bench";
  const env = {
    ...process.env,
    STUDIO_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    STUDIO_DIST_DIR: distDir,
    BETTER_AUTH_URL: baseUrl,
    PORT: port,
  };

  // 1. The studio: a small Mobile-R1 dataset through the real import, then copied up to --steps.
  process.env.STUDIO_DATA_DIR = dataDir;
  process.env.DATABASE_URL = databaseUrl;
  const makeStudio = async () => {
    await mkdir(dataDir, { recursive: true });
    await migrate(databaseUrl);
    const source = path.join(work, "source");
    await mobileR1Dataset(source, Math.min(2000, Number(values.steps)), 11);
    const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
    const imported = spawnSync(
      process.execPath,
      [tsx, "lib/cli/main.ts", "import", path.join(source, "data.jsonl"), "--format", "mobile-r1"],
      {
        cwd: ROOT,
        env,
        encoding: "utf8",
      },
    );
    if (imported.status !== 0) throw new Error(`import failed:\n${imported.stderr.slice(-2000)}`);
    return growStudio(dbFile, Number(values.steps));
  };
  const grown = reuse ? countStudio(dbFile) : await makeStudio();
  console.log(`studio: ${grown.trajectories} trajectories, ${grown.steps} steps${reuse ? " (reused)" : ""}`);

  // 2. A production build in its own folder (never the one another build may hold locked).
  if (!values["skip-build"] || !existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    console.log(`building into ${distDir} …`);
    const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (build.status !== 0) throw new Error(`next build failed:\n${(build.stdout + build.stderr).slice(-3000)}`);
  }

  // 3. The server, with per-stage timings on.
  const server = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: {
      ...env,
      STUDIO_SERVER_TIMING: "1",
      STUDIO_SIGN_IN_PER_MINUTE: "1000",
      STUDIO_API_LANE: values.lane,
      STUDIO_WORKERS: values.workers,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = allWorkersAnswer(server);
  try {
    await waitForHealth(baseUrl, server);
    await ready;
    const figures = await runLoadBench({
      baseUrl,
      databaseUrl,
      connections: Number(values.connections),
      durationSeconds: Number(values.duration),
      ...(only ? { only: only as WorkloadKey[] } : {}),
    });
    console.log(`\n${formatFigures(figures)}`);
    await writeFile(
      path.join(out, "load.json"),
      `${JSON.stringify({ at: new Date().toISOString(), lane: values.lane, workers: Number(values.workers), steps: grown.steps, trajectories: grown.trajectories, figures }, null, 2)}\n`,
    );
    console.log(`\nwritten: ${path.relative(ROOT, path.join(out, "load.json"))}`);
  } finally {
    server.kill("SIGTERM");
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
