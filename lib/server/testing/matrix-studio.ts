// The studio the access matrix and the API lane's contract test run against: a fresh SQLite studio with one
// person of each role (and a second annotator), each with an API token, two imported trajectories ("mine",
// assigned to the annotator and in progress; "theirs", the other annotator's, handed in), a comment, a
// model suggestion, a paused model job, an evaluation set with a paused and a finished run, and a local
// OpenAI-compatible model server. Real rows written through the real use cases where there is one.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Role } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import { createToken } from "../people/tokens";
import { blankPng, freshStudio } from "./fixtures";
import { startFakeModelServer } from "./fake-model-server";

export type Who = Role | "other-annotator";
export const WHO: Who[] = ["admin", "reviewer", "annotator", "other-annotator"];

export type MatrixStudio = {
  db: Db;
  mine: string;
  theirs: string;
  stepOfMine: string;
  commentOnMine: string;
  png: Buffer;
  users: Record<Who, string>;
  annotatorsToken: string;
  modelUrl: string;
  suggestionOnMine: string;
  pausedJob: string;
  project: string;
  evalSet: string;
  pausedRun: string;
  finishedRun: string;
};

/** A one-step UI-S1 trajectory line with this goal (its screenshot is s.png). */
export const uiS1 = (goal: string) =>
  `${JSON.stringify({ goal, steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "s.png" }] })}\n`;

/** The matrix studio, and each person's API token. */
export async function seedMatrixStudio(): Promise<{ ctx: MatrixStudio; tokens: Record<Who, string> }> {
  const { db } = await freshStudio();
  const tokens = {} as Record<Who, string>;
  const users = {} as Record<Who, string>;
  for (const who of WHO) {
    const { person: user } = await createUser(
      { actor: CLI_ACTOR, email: `${who}@example.com`, role: who === "other-annotator" ? "annotator" : who, password: "password-123" },
      db,
    );
    users[who] = user.id;
    tokens[who] = (await createToken({ actor: CLI_ACTOR, user: user.email, name: "matrix" }, db)).token;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "matrix-"));
  const png = await blankPng(1080, 2400);
  await writeFile(path.join(dir, "s.png"), png);
  await writeFile(path.join(dir, "d.jsonl"), uiS1("mine") + uiS1("theirs"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  const mine = await db.trajectory.findFirstOrThrow({ where: { instruction: "mine" } });
  const theirs = await db.trajectory.findFirstOrThrow({ where: { instruction: "theirs" } });
  await db.trajectory.update({ where: { id: mine.id }, data: { assigneeId: users.annotator, status: "in_progress" } });
  await db.trajectory.update({ where: { id: theirs.id }, data: { assigneeId: users["other-annotator"], status: "submitted" } });
  const stepOfMine = (await db.step.findFirstOrThrow({ where: { trajectoryId: mine.id } })).id;
  const annotatorsToken = (await createToken({ actor: CLI_ACTOR, user: users.annotator, name: "spare" }, db)).id;
  const commentOnMine = (
    await db.comment.create({ data: { trajectoryId: mine.id, stepIndex: 0, authorId: users.reviewer, body: "Which app?" } })
  ).id;
  const model = await startFakeModelServer();
  await db.modelSetting.create({ data: { id: "default", baseUrl: model.baseUrl, model: "fake-vl" } });
  const suggestionOnMine = (
    await db.stepSuggestion.create({
      data: {
        stepId: stepOfMine,
        trajectoryId: mine.id,
        kind: "thought",
        origin: "editor",
        prompt: "suggest-thought.v1",
        model: "fake-vl",
        outputJson: JSON.stringify({ state: "a", nextAction: "b", purpose: "c", text: "a. b. c." }),
        rawText: "{}",
      },
    })
  ).id;
  const pausedJob = (
    await db.modelJob.create({
      data: {
        kind: "prefill",
        state: "paused",
        selectionJson: JSON.stringify({ trajectoryIds: [theirs.id] }),
        prompt: "suggest-thought.v1",
        createdByLabel: "cli",
        progressTotal: 1,
      },
    })
  ).id;
  const evalSet = (
    await db.snapshot.create({
      data: {
        kind: "eval-set",
        name: "matrix-held",
        number: 1,
        filtersJson: "{}",
        contentSha256: "0",
        trajectoryCount: 0,
        stepCount: 0,
        createdByLabel: "cli",
      },
    })
  ).id;
  const endpoint = await db.evalEndpoint.create({ data: { name: "matrix-endpoint", baseUrl: model.baseUrl, model: "fake-vl" } });
  const run = (state: string) => ({
    snapshotId: evalSet,
    setName: "matrix-held",
    setVersion: 1,
    endpointId: endpoint.id,
    endpointName: endpoint.name,
    model: "fake-vl",
    coords: "qwen25-abs",
    rule: "ui-s1",
    maxPixels: 12845056,
    state,
    createdByLabel: "cli",
  });
  const pausedRun = (await db.evalRun.create({ data: run("paused") })).id;
  const finishedRun = (await db.evalRun.create({ data: { ...run("succeeded"), figuresJson: "{}" } })).id;
  await db.evalStep.create({
    data: {
      runId: finishedRun,
      trajectoryId: theirs.id,
      stepIndex: 0,
      position: 0,
      app: "Gmail",
      gtAction: "open",
      response: "no idea",
      extractMatch: false,
      typeMatch: false,
      failure: "unparseable",
    },
  });
  const ctx: MatrixStudio = {
    db,
    pausedRun,
    finishedRun,
    mine: mine.id,
    theirs: theirs.id,
    stepOfMine,
    commentOnMine,
    png,
    users,
    annotatorsToken,
    modelUrl: model.baseUrl,
    suggestionOnMine,
    pausedJob,
    project: mine.projectId,
    evalSet,
  };
  return { ctx, tokens };
}
