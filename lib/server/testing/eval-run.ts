// The columns of a running evaluation run over an empty evaluation set (created once per database), for the
// job system's tests: taken over, it has nothing to ask and finishes at once.
import type { Db } from "../db";

export async function emptyEvalRun(db: Db) {
  const set =
    (await db.snapshot.findFirst({ where: { kind: "eval-set", name: "jobs-empty" } })) ??
    (await db.snapshot.create({
      data: {
        kind: "eval-set",
        name: "jobs-empty",
        number: 1,
        filtersJson: "{}",
        contentSha256: "0",
        trajectoryCount: 0,
        stepCount: 0,
        createdByLabel: "test",
      },
    }));
  const endpoint = await db.evalEndpoint.upsert({
    where: { name: "jobs-endpoint" },
    create: { name: "jobs-endpoint", baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    update: {},
  });
  return {
    snapshotId: set.id,
    setName: set.name,
    setVersion: set.number,
    endpointId: endpoint.id,
    endpointName: endpoint.name,
    model: endpoint.model,
    coords: "qwen25-abs",
    rule: "ui-s1",
    maxPixels: 12845056,
    state: "running",
  };
}
