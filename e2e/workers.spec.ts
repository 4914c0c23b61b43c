import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { DEMO_ACCOUNTS } from "./accounts";

// STUDIO_WORKERS=2: two studio processes share the port (server/main.ts, Node's cluster) on one SQLite
// file. Saves that race from separate connections are still decided once per version across the two
// processes, and a worker that dies takes the whole server down (a supervisor restarts it) rather
// than leaving half a studio serving.

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.E2E_PORT ?? 3100) + 20;
const URL = `http://127.0.0.1:${PORT}`;

let server: ChildProcess;
const log: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "studio-workers-"));
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`,
    STUDIO_DATA_DIR: dataDir,
    BETTER_AUTH_URL: URL,
    PORT: String(PORT),
    STUDIO_SIGN_IN_PER_MINUTE: "1000",
    STUDIO_DEMO_TRAJECTORIES: "4",
    STUDIO_WORKERS: "2",
  };
  const setup = spawnSync(process.execPath, ["scripts/studio.mjs", "setup-demo"], { cwd: ROOT, env, encoding: "utf8" });
  expect(setup.status, setup.stderr).toBe(0);
  server = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const s of [server.stdout!, server.stderr!]) createInterface({ input: s }).on("line", (l) => log.push(l));
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${log.join("\n")}`);
    try {
      if ((await fetch(`${URL}/api/health`)).ok && log.filter((l) => l.includes("the studio answers")).length === 2) break;
    } catch {
      // not up yet
    }
    if (i > 400) throw new Error(`the server did not come up:\n${log.join("\n")}`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(() => {
  if (server?.exitCode === null) server.kill("SIGTERM");
});

async function signedIn(): Promise<APIRequestContext> {
  const account = DEMO_ACCOUNTS.find((a) => a.role === "annotator")!;
  const ctx = await playwrightRequest.newContext({ baseURL: URL });
  const res = await ctx.post("/api/auth/sign-in/email", {
    data: { email: account.email, password: account.password },
    headers: { origin: URL },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

/** The pids of the server's worker processes (children of the primary). */
function workerPids(): number[] {
  const out = spawnSync("pgrep", ["-P", String(server.pid)], { encoding: "utf8" }).stdout;
  return out.split("\n").filter(Boolean).map(Number);
}

test("two workers serve one studio: of two saves from the same version, exactly one lands, every time @storage", async () => {
  expect(workerPids()).toHaveLength(2);
  const a = await signedIn();
  // Another connection with the same session: requests from the two are spread over the workers.
  const b = await playwrightRequest.newContext({ baseURL: URL, storageState: await a.storageState() });
  const next = await a.post("/api/tasks/next", { headers: { origin: URL } });
  expect(next.status(), await next.text()).toBe(200);
  const { id } = (await next.json()) as { id: string };
  type Step = { id: string; version: number; thought: object; clearAction: string; toolCall: object; box: object | null; verdict: string };
  const first = ((await (await a.get(`/api/trajectories/${id}`)).json()) as { steps: Step[] }).steps[0]!;
  let version = first.version;
  const rounds = 12;
  for (let round = 0; round < rounds; round++) {
    const body = (who: string) => ({
      data: {
        thought: first.thought,
        clearAction: `${who} in round ${round}`,
        toolCall: first.toolCall,
        box: first.box,
        verdict: first.verdict,
        version,
      },
      headers: { origin: URL },
    });
    const answers = await Promise.all([
      a.put(`/api/steps/${first.id}/annotation`, body("A")),
      b.put(`/api/steps/${first.id}/annotation`, body("B")),
    ]);
    expect(answers.map((r) => r.status()).sort(), `round ${round}`).toEqual([200, 409]);
    version += 1;
  }
  const now = ((await (await b.get(`/api/trajectories/${id}`)).json()) as { steps: Step[] }).steps[0]!;
  expect(now.version).toBe(first.version + rounds);
  expect(now.clearAction).toMatch(new RegExp(`in round ${rounds - 1}$`));
});

test("a worker that dies stops the whole server, with a line saying so @storage", async () => {
  const [victim, other] = workerPids();
  expect(victim).toBeGreaterThan(0);
  process.kill(victim!, "SIGKILL");
  const code = await new Promise<number | null>((resolve) =>
    server.exitCode !== null ? resolve(server.exitCode) : server.on("exit", resolve),
  );
  expect(code).not.toBe(0);
  expect(log.join("\n")).toMatch(new RegExp(`studio: worker ${victim} stopped \\(SIGKILL\\); stopping the others`));
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(() => alive(other!), { timeout: 10_000 }).toBe(false);
  await expect(fetch(`${URL}/api/health`)).rejects.toThrow();
});
