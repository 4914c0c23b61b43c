// Near-duplicate grouping on real images (screens drawn with sharp, duplicates re-encoded or slightly edited,
// instructions re-typed with other white space and case) and, at scale, on 100k generated signatures.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { groupNearDuplicates, hammingDistance, type TrajectorySignature } from "@/lib/domain/near-duplicates";
import { mulberry32 } from "@/lib/domain/random";
import { runBridge } from "./cli";
import { dHash } from "./dedupe";
import { captureIo, makeStep, makeTrajectory, readJsonl, tempDir, writeExport, type Shot } from "./test-fixtures";

const W = 360;
const H = 800;

/** A phone-like screen: a status bar, a title bar and rows of coloured blocks placed by `seed`. */
async function screen(seed: number): Promise<Buffer> {
  const rand = mulberry32(seed);
  const blocks = Array.from({ length: 14 }, () => {
    const x = Math.floor(rand() * (W - 120));
    const y = 80 + Math.floor(rand() * (H - 200));
    const w = 40 + Math.floor(rand() * 200);
    const h = 30 + Math.floor(rand() * 120);
    const c = Math.floor(rand() * 255);
    return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgb(${c},${255 - c},${(c * 7) % 255})"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#f4f4f4"/><rect width="100%" height="24" fill="#222"/><rect y="24" width="100%" height="48" fill="#3a6"/>${blocks.join("")}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The same screen as a device captures it again: through JPEG and back to PNG. */
const reencoded = async (png: Buffer) =>
  sharp(await sharp(png).jpeg({ quality: 70 }).toBuffer())
    .png()
    .toBuffer();
/** The same screen with the clock changed (a small patch of the status bar) and slightly brighter. */
const altered = async (png: Buffer) =>
  sharp(png)
    .composite([{ input: { create: { width: 40, height: 14, channels: 3, background: "#eee" } }, left: 300, top: 5 }])
    .modulate({ brightness: 1.04 })
    .png()
    .toBuffer();

const shotOf = (bytes: Buffer): Shot => {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { sha256, width: W, height: H, file: `screenshots/${sha256}.png`, bytes };
};

type Plan = { id: string; instruction: string; screens: Buffer[]; actions?: "default" | "other" };

async function exportOf(plans: Plan[], omitShots: string[] = []): Promise<string> {
  const shots = new Map<string, Shot>();
  const trajectories = plans.map((p) => {
    const steps = p.screens.map((png, i) => {
      const shot = shotOf(png);
      shots.set(shot.sha256, shot);
      const call =
        i === 0
          ? { action: "open" as const, text: "Files" }
          : p.actions === "other" && i === 1
            ? { action: "swipe" as const, coordinate: [180, 600] as [number, number], coordinate2: [180, 200] as [number, number] }
            : { action: "click" as const, coordinate: [100 + i, 300] as [number, number] };
      return makeStep(i, shot, call);
    });
    return makeTrajectory(steps, { id: p.id, instruction: p.instruction });
  });
  return writeExport(trajectories, [...shots.values()], { omitShots });
}

describe("bridge dedupe", () => {
  it("finds planted duplicates (re-encoded and edited screens, re-typed instructions) and groups no distinct trajectories", async () => {
    const s = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map(screen));
    const [a, b, c, d, e, f, g, h, k] = s as [Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer, Buffer];
    const plans: Plan[] = [
      { id: "t-a", instruction: "Open the Downloads folder and delete report.pdf", screens: [a, b, c] },
      // duplicates of t-a: screens through JPEG; then edited; instruction with other case and white space
      {
        id: "t-a-jpeg",
        instruction: "open the downloads folder and delete report.pdf",
        screens: [await reencoded(a), await reencoded(b), await reencoded(c)],
      },
      {
        id: "t-a-edit",
        instruction: "  Open the Downloads  folder\tand delete REPORT.pdf ",
        screens: [await altered(a), await altered(b), await altered(c)],
      },
      // Chinese instruction, full-width spaces
      { id: "t-zh", instruction: "在设置中打开 Wi-Fi", screens: [d, e] },
      { id: "t-zh-dup", instruction: "在设置中打开\u3000WI-FI", screens: [await reencoded(d), await altered(e)] },
      // distinct: same instruction, other screens
      { id: "t-same-words", instruction: "Open the Downloads folder and delete report.pdf", screens: [f, g, h] },
      // distinct: same screens, other instruction
      { id: "t-other-task", instruction: "Open the Downloads folder and share report.pdf", screens: [a, b, c] },
      // distinct: same screens and instruction, other actions
      { id: "t-other-actions", instruction: "Open the Downloads folder and delete report.pdf", screens: [a, b, c], actions: "other" },
      // distinct: one screen differs
      { id: "t-last-screen", instruction: "Open the Downloads folder and delete report.pdf", screens: [a, b, k] },
    ];
    const exportDir = await exportOf(plans);
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["dedupe", exportDir, "--out", out], io), io.err()).toBe(0);
    const written = JSON.parse(await readFile(path.join(out, "duplicates.json"), "utf8")) as {
      groups: { keeper: { trajectory: string }; duplicates: { trajectory: string; screenDistances: number[] }[] }[];
    };
    const groups = written.groups.map((g) => [g.keeper.trajectory, ...g.duplicates.map((d) => d.trajectory)].sort());
    expect(groups).toEqual([
      ["t-a", "t-a-edit", "t-a-jpeg"],
      ["t-zh", "t-zh-dup"],
    ]);
    // All else equal, the first in the export is kept.
    expect(written.groups.map((g) => g.keeper.trajectory)).toEqual(["t-a", "t-zh"]);
    // The edits really moved hash bits (the test is not comparing identical hashes), within the default 8.
    const distances = written.groups.flatMap((g) => g.duplicates.flatMap((d) => d.screenDistances));
    expect(Math.max(...distances)).toBeGreaterThan(0);
    expect(Math.max(...distances)).toBeLessThanOrEqual(8);
    const summary = JSON.parse(io.out()) as { groups: number; duplicates: number; trajectories: number };
    expect(summary).toMatchObject({ trajectories: 9, groups: 2, duplicates: 3 });
  }, 120_000);

  it("a trajectory whose screenshot is missing is a problem naming it (exit 1), the others still grouped", async () => {
    const [a, b] = (await Promise.all([31, 32].map(screen))) as [Buffer, Buffer];
    const gone = shotOf(b);
    const plans: Plan[] = [
      { id: "x", instruction: "Mute the call", screens: [a] },
      { id: "x-dup", instruction: "mute the call", screens: [await reencoded(a)] },
      { id: "y", instruction: "Mute the call", screens: [b] },
    ];
    const exportDir = await exportOf(plans, [gone.sha256]);
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["dedupe", exportDir, "--out", out], io)).toBe(1);
    expect(io.err()).toContain(`trajectories.jsonl:3 trajectory y step 1: ${gone.file} is missing from the export folder`);
    expect(JSON.parse(io.out())).toMatchObject({ trajectories: 2, groups: 1, duplicates: 1, problems: 1 });
  }, 60_000);

  it("dHash: distinct screens differ in many bits", async () => {
    const hashes = await Promise.all([11, 12, 13, 14, 15, 16].map(async (n) => dHash(await screen(n))));
    for (let i = 0; i < hashes.length; i++)
      for (let j = i + 1; j < hashes.length; j++) expect(hammingDistance(hashes[i]!, hashes[j]!)).toBeGreaterThan(8);
  });

  it("--drop-duplicates leaves the duplicates' rows out of a trainer file and keeps the keepers'", async () => {
    const [a, b, d] = (await Promise.all([21, 22, 23].map(screen))) as [Buffer, Buffer, Buffer];
    const exportDir = await exportOf([
      { id: "keep", instruction: "Archive the mail", screens: [a, b] },
      { id: "dup", instruction: "archive  the mail", screens: [await reencoded(a), await reencoded(b)] },
      { id: "other", instruction: "Star the mail", screens: [d, b] },
    ]);
    const run = async (extra: string[]) => {
      const out = await tempDir();
      const io = captureIo();
      const code = await runBridge(["grpo", exportDir, "--out", out, "--target", "ms-swift", ...extra], io);
      expect(code, io.err()).toBe(0);
      return (await readJsonl(path.join(out, "mobile_use_grpo.jsonl"))) as { trajectory_id?: string }[];
    };
    const all = await run([]);
    const deduped = await run(["--drop-duplicates"]);
    const ids = (rows: { trajectory_id?: string }[]) => [...new Set(rows.map((r) => r.trajectory_id))].sort();
    expect(ids(all)).toEqual(["dup", "keep", "other"]);
    expect(ids(deduped)).toEqual(["keep", "other"]);
    expect(deduped).toHaveLength(all.length - 2);
    // With shards, the card counts what was released: the keepers only.
    const out = await tempDir();
    const io = captureIo();
    expect(
      await runBridge(
        ["sft", exportDir, "--out", out, "--target", "ms-swift", "--drop-duplicates", "--shards", "parquet", "--license", "CC-BY-4.0"],
        io,
      ),
      io.err(),
    ).toBe(0);
    const readme = await readFile(path.join(out, "README.md"), "utf8");
    expect(readme).toContain("- Trajectories: 2 (0 discarded by reviewers)");
    expect(io.err()).toContain("--drop-duplicates leaves out 1 trajectories (1 groups, one keeper each)");
  }, 120_000);
});

/** 64-bit value from two 32-bit draws. */
const draw64 = (rand: () => number) => (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32));

describe("groupNearDuplicates at 100k trajectories", () => {
  it("finds every planted duplicate, groups nothing else, in under a minute", () => {
    const rand = mulberry32(2027);
    const N = 100_000;
    const PLANTED = 2_000;
    const actionsPool = [["open"], ["open", "click"], ["open", "click", "type"], ["open", "click", "click", "swipe"]];
    // Few distinct instructions, so the instruction alone groups thousands: banding on the screens must split them.
    const instructions = Array.from({ length: 50 }, (_, i) => `task ${i}`);
    const sigs: TrajectorySignature[] = [];
    for (let i = 0; i < N - PLANTED; i++) {
      const actions = actionsPool[Math.floor(rand() * actionsPool.length)]!;
      sigs.push({
        ordinal: i,
        line: i + 1,
        key: `t${i}`,
        instruction: instructions[Math.floor(rand() * instructions.length)]!,
        actions,
        screens: actions.map(() => draw64(rand)),
        status: "approved",
        stepsByPeople: 1,
        reviewedSteps: 1,
      });
    }
    // Each planted duplicate copies an original and flips up to 8 bits of every screen.
    const planted = new Map<string, string>();
    for (let p = 0; p < PLANTED; p++) {
      const src = sigs[Math.floor(rand() * (N - PLANTED))]!;
      const ordinal = sigs.length;
      const screens = src.screens.map((h) => {
        let x = h;
        const flips = Math.floor(rand() * 9);
        const bits = new Set<number>();
        while (bits.size < flips) bits.add(Math.floor(rand() * 64));
        for (const b of bits) x ^= 1n << BigInt(b);
        return x;
      });
      sigs.push({ ...src, ordinal, line: ordinal + 1, key: `dup${p}`, screens, status: "submitted" });
      planted.set(`dup${p}`, src.key);
    }
    const started = performance.now();
    const { groups, stats } = groupNearDuplicates(sigs, 8);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `groupNearDuplicates: ${N} trajectories, ${stats.candidatePairs} candidate pairs, ${groups.length} groups in ${seconds.toFixed(2)} s`,
    );
    expect(seconds).toBeLessThan(60);
    const groupOf = new Map<string, number>();
    groups.forEach((g, i) => [g.keeper, ...g.duplicates].forEach((s) => groupOf.set(s.key, i)));
    for (const [dup, src] of planted) {
      expect(groupOf.get(dup), `${dup} not grouped`).toBeDefined();
      expect(groupOf.get(dup)).toBe(groupOf.get(src));
    }
    // Nothing but the originals and their planted copies is grouped (random 64-bit screens are ~32 bits apart).
    for (const g of groups)
      for (const s of [g.keeper, ...g.duplicates]) expect(s.key.startsWith("dup") || [...planted.values()].includes(s.key)).toBe(true);
    // The approved original is the keeper over its submitted copies.
    for (const g of groups) expect(g.keeper.key.startsWith("t")).toBe(true);
    // No all-pairs comparison (5e9 pairs): candidates stay a small multiple of N even with only 50 instructions.
    expect(stats.candidatePairs).toBeLessThan(N * 20);
  });
});
