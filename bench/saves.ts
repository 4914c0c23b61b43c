// `tsx bench/saves.ts <out.json> <stop-file> [annotators]`: annotators saving steps as the editor's
// autosave does, in a process of its own (the server's part), until <stop-file> exists. Each
// annotator is assigned one trajectory of the studio at DATABASE_URL and saves its first step again
// and again, through the same use case the save route calls (saveStepAnnotation: a transaction that
// checks the version, updates the step and writes an audit row). Writes every save's start time,
// duration and error to <out.json>; `ready` is when the first save of every annotator is done.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { SaveStepInput } from "@/lib/domain/annotation";
import type { Actor } from "@/lib/domain/permissions";
import { saveStepAnnotation } from "@/lib/server/annotate";
import { db } from "@/lib/server/db";

const [out, stopFile, count = "16"] = process.argv.slice(2) as [string, string, string?];
const ANNOTATORS = Number(count);
const PAUSE_MS = 100;
const prisma = db();

const trajectories = await prisma.trajectory.findMany({
  where: { project: { name: "default" } },
  take: ANNOTATORS,
  orderBy: { id: "asc" },
  include: { steps: { where: { index: 0 } } },
});
if (trajectories.length < ANNOTATORS) throw new Error(`the studio holds ${trajectories.length} trajectories; ${ANNOTATORS} needed`);
const people = await Promise.all(
  trajectories.map(async (t, i) => {
    const email = `bench-annotator-${i}@studio.local`;
    const u = await prisma.user.upsert({
      where: { email },
      create: { id: `bench-annotator-${i}`, email, name: `Bench annotator ${i}`, role: "annotator" },
      update: {},
    });
    await prisma.trajectory.update({ where: { id: t.id }, data: { assigneeId: u.id, status: "in_progress" } });
    return { actor: { id: u.id, email, name: u.name, role: "annotator" } as Actor, stepId: t.steps[0]!.id };
  }),
);

type Sample = { at: number; ms: number; error?: string };
const samples: Sample[] = [];
let readyCount = 0;
let ready = 0;
await Promise.all(
  people.map(async ({ actor, stepId }) => {
    let edit = 0;
    let first = true;
    while (!existsSync(stopFile)) {
      const row = (await prisma.step.findUnique({ where: { id: stepId } }))!;
      const input: SaveStepInput = {
        version: row.version,
        thought: {
          state: row.thoughtState,
          nextAction: row.thoughtNext,
          purpose: row.thoughtPurpose,
          text: `${row.thought.replace(/ \(bench edit \d+\)$/, "")} (bench edit ${++edit})`,
        },
        clearAction: row.clearAction,
        toolCall: JSON.parse(row.toolCallJson),
        box: row.boxJson ? JSON.parse(row.boxJson) : null,
        verdict: row.verdict as SaveStepInput["verdict"],
      };
      const at = Date.now();
      const t0 = performance.now();
      try {
        await saveStepAnnotation({ actor, stepId, ...input }, prisma);
        samples.push({ at, ms: performance.now() - t0 });
      } catch (e) {
        samples.push({ at, ms: performance.now() - t0, error: String(e).slice(0, 300) });
      }
      if (first) {
        first = false;
        if (++readyCount === people.length) {
          ready = Date.now();
          await writeFile(`${out}.ready`, String(ready));
        }
      }
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  }),
);
await writeFile(out, JSON.stringify({ ready, samples }));
await prisma.$disconnect();
