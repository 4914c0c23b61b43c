// `npx tsx bench/step-switch.ts`: how long from a key press (j / k) to the next step's screenshot
// painted in the annotation editor, in Debian's Chromium. Serves its own studio (demo data) on a
// private port; set STUDIO_SKIP_BUILD=1 to reuse the current .next build. Results: bench/out/step-switch.json.
//
// "Painted" is the second animation frame after the editor drew the new step's screenshot (Konva draws
// in the first), recorded by the canvas as window.__studioPaint; the key time is taken in a capturing
// keydown listener, so the figure includes the key handling, React's render and Konva's draw.
import { spawn } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { chromium } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.BENCH_PORT ?? 3197);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA = path.join(ROOT, ".tmp/bench-step-switch");
const TRAJECTORIES = Number(process.env.BENCH_TRAJECTORIES ?? 3);

async function waitForHealth(timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error("the studio did not come up");
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main() {
  await rm(DATA, { recursive: true, force: true });
  await mkdir(DATA, { recursive: true });
  const server = spawn(process.execPath, [path.join(ROOT, "scripts/serve.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      STUDIO_DATA_DIR: DATA,
      DATABASE_URL: `file:${path.join(DATA, "studio.db")}`,
      STUDIO_DEMO_TRAJECTORIES: "12",
      // The canvas reports its paints (window.__studioPaint) only in a build with the test hooks.
      NEXT_PUBLIC_STUDIO_TEST_HOOKS: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForHealth();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ],
    });
    const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1440, height: 900 } });
    const signIn = await context.request.post("/api/auth/sign-in/email", {
      data: { email: "annotator@studio.local", password: "studio-annotator" },
      headers: { origin: BASE },
    });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`);
    const tasks = (await (await context.request.get("/api/tasks")).json()) as { tasks: { id: string; stepCount: number }[] };
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __benchKeyAt: number; __benchBaseline?: number };
      window.addEventListener(
        "keydown",
        (e) => {
          w.__benchKeyAt = performance.now();
          // Baseline: a key the editor ignores (bare Shift), timed to the second animation frame the
          // same way as a step switch: the floor any key-to-paint figure sits on in this browser.
          if (e.key === "Shift") {
            const at = w.__benchKeyAt;
            requestAnimationFrame(() => requestAnimationFrame(() => (w.__benchBaseline = performance.now() - at)));
          }
        },
        { capture: true },
      );
    });

    const baseline: number[] = [];
    const forward: number[] = [];
    const backward: number[] = [];
    for (const task of tasks.tasks.slice(0, TRAJECTORIES)) {
      await page.goto(`/trajectories/${task.id}`);
      await page.waitForFunction(() => (window as unknown as { __studioPaint?: { stepIndex: number } }).__studioPaint?.stepIndex === 0);
      const walk = async (key: string, target: number, into: number[]) => {
        await page.keyboard.press(key);
        const ms = await page.waitForFunction(
          (t) => {
            const w = window as unknown as { __studioPaint?: { stepIndex: number; at: number }; __benchKeyAt: number };
            return w.__studioPaint && w.__studioPaint.stepIndex === t && w.__studioPaint.at >= w.__benchKeyAt
              ? w.__studioPaint.at - w.__benchKeyAt
              : false;
          },
          target,
          { polling: 5 },
        );
        into.push((await ms.jsonValue()) as number);
        await page.waitForTimeout(150); // an annotator looks before moving on; lets prefetches land
      };
      for (let i = 0; i < 5; i++) {
        await page.evaluate(() => ((window as unknown as { __benchBaseline?: number }).__benchBaseline = undefined));
        await page.keyboard.press("Shift");
        const ms = await page.waitForFunction(
          () => (window as unknown as { __benchBaseline?: number }).__benchBaseline ?? false,
          undefined,
          { polling: 5 },
        );
        baseline.push((await ms.jsonValue()) as number);
        await page.waitForTimeout(50);
      }
      for (let i = 1; i < task.stepCount; i++) await walk("j", i, forward);
      for (let i = task.stepCount - 2; i >= 0; i--) await walk("k", i, backward);
    }
    await browser.close();

    const summary = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { n: s.length, median: +quantile(s, 0.5).toFixed(1), p95: +quantile(s, 0.95).toFixed(1), max: +s[s.length - 1]!.toFixed(1) };
    };
    const base = summary(baseline);
    const all = summary([...forward, ...backward]);
    const results = {
      baseline: base,
      forward: summary(forward),
      backward: summary(backward),
      all,
      medianRatioToBaseline: +(all.median / base.median).toFixed(2),
    };
    await mkdir(path.join(ROOT, "bench/out"), { recursive: true });
    await writeFile(path.join(ROOT, "bench/out/step-switch.json"), `${JSON.stringify(results, null, 2)}\n`);
    console.log("key press -> next screenshot painted (ms, Chromium):");
    for (const [k, v] of Object.entries(results)) {
      if (typeof v === "number")
        console.log(`  median step switch = ${v} × the baseline (a key the editor ignores, to the same second frame)`);
      else console.log(`  ${k.padEnd(9)} n=${v.n}  median ${v.median}  p95 ${v.p95}  max ${v.max}`);
    }
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
