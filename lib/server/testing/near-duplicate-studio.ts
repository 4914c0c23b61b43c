// A real SQLite studio with planted re-runs, for the tests of near-duplicates wired into releases, the list
// and assignment (issue 27 item 3). PNGs with structure (a blank screen hashes to 0), imported for real.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Actor } from "@/lib/domain/permissions";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { importFile } from "../import";
import { getTrajectory } from "../annotate/trajectories";
import { freshStudio } from "./fixtures";

/** A 540x1200 screen: dark bars at the given rows over a light background, `tag` in EXIF (its own sha256). */
async function screen(bars: number[], tag: string, shift = 0): Promise<Buffer> {
  const rects = bars.map((y, i) => `<rect x="${40 + shift + i * 30}" y="${y}" width="${200 + i * 40}" height="90" fill="#222"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="1200"><rect width="540" height="1200" fill="#eee"/>${rects}</svg>`;
  return sharp(Buffer.from(svg))
    .png()
    .withMetadata()
    .withExif({ IFD0: { ImageDescription: tag } })
    .toBuffer();
}

export type PlantedIds = Record<"first" | "again" | "thrice" | "other" | "elsewhere", string>;

/**
 * "first" and its re-runs "again" (screens re-encoded, one moved 2 px; one step judged by a person, so it
 * is the group's keeper) and "thrice" (the first's own screens); "other": the same task and actions over
 * different screens; "elsewhere": another instruction over the first's screens. One admin, `admin`.
 */
export async function plantedReRuns(): Promise<{ db: Db; dir: string; admin: Actor; id: PlantedIds }> {
  const { db, dir } = await freshStudio();
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
  const admin: Actor = { id: u.id, email: u.email, name: u.name, role: "admin" };
  const files: Record<string, Buffer> = {
    a1: await screen([100, 700], "a1"),
    a2: await screen([300, 900, 1000], "a2"),
    b1: await screen([100, 700], "b1", 2),
    b2: await screen([300, 900, 1000], "b2"),
    c1: await screen([500, 520, 1100], "c1"),
    c2: await screen([50], "c2"),
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(dir, `${name}.png`), bytes);
  const goals = {
    first: "Set an alarm for 7",
    again: "set an  ALARM for 7",
    thrice: "SET AN ALARM FOR 7",
    other: "Set an alarm for  7",
    elsewhere: "Start a timer",
  };
  const shots = { first: ["a1", "a2"], again: ["b1", "b2"], thrice: ["a1", "a2"], other: ["c1", "c2"], elsewhere: ["a1", "a2"] };
  const line = (goal: string, names: string[]) =>
    JSON.stringify({
      goal,
      app: "Clock",
      steps: names.map((shot, i) => ({
        action_content: i === 0 ? { action: "click", coordinate: [100, 200] } : { action: "type", text: "7:00" },
        thought: "Go on.",
        action_description: "Go on",
        screenshot: `${shot}.png`,
      })),
    });
  const file = path.join(dir, "seed.jsonl");
  const keys = Object.keys(goals) as (keyof PlantedIds)[];
  await writeFile(file, keys.map((k) => line(goals[k], shots[k])).join("\n") + "\n");
  const imported = await importFile({ file, format: "ui-s1", screenshotsDir: dir, db });
  if (!imported.ok) throw new Error("seed import failed");
  const id = {} as PlantedIds;
  for (const k of keys) id[k] = (await db.trajectory.findFirstOrThrow({ where: { instruction: goals[k] } })).id;
  // A person judged one step of "again": the furthest reviewed of its group, so its keeper whatever the ids.
  const step = (await getTrajectory(id.again, db)).steps[0]!;
  await saveStepAnnotation(
    {
      actor: admin,
      stepId: step.id,
      thought: { ...step.thought, nextAction: "Tap the item.", purpose: "To open it." },
      clearAction: step.clearAction,
      toolCall: step.toolCall,
      box: [50, 150, 250, 250],
      verdict: "good",
      version: step.version,
    },
    db,
  );
  return { db, dir, admin, id };
}
