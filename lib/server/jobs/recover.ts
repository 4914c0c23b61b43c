// Recovery and commands, the same for every kind. A running job whose runner is gone is failed or taken
// over (its kind says which), each once, by whichever process looks first: the update is conditional on
// the row being as it was judged (same state, runner and heartbeat), so a job that just said it is alive
// is left alone. Pause, resume and cancel are conditional state changes the runner reads between items.
import { readStoredError } from "../errors";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "../people";
import type { Db } from "../db";
import type { JobKind, JobRowBase } from "./kind";
import { abortHere, isRunnerGone, runnerId } from "./runner";

/**
 * Fail or take over this kind's running jobs whose runner is gone. Returns the ids changed here (failed,
 * or taken over and started again in this process). Safe from any process at any time.
 */
export async function recoverJobs<Row extends JobRowBase, Progress>(kind: JobKind<Row, Progress>, db: Db): Promise<string[]> {
  const table = kind.table(db);
  const now = Date.now();
  const changed: string[] = [];
  for (const row of await table.running()) {
    if (!isRunnerGone(kind, row, now)) continue;
    const asJudged = { id: row.id, state: "running", runnerId: row.runnerId, heartbeatAt: row.heartbeatAt };
    if ("fail" in kind.whenGone) {
      const error = kind.whenGone.fail(row);
      if ((await table.update(asJudged, { state: "failed", error, finishedAt: new Date(now) })) !== 1) continue;
      await audit(
        db,
        kind,
        row.id,
        SYSTEM_ACTOR,
        "fail",
        { state: "running", runnerId: row.runnerId },
        { state: "failed", error: readStoredError(error).error },
      );
    } else {
      if ((await table.update(asJudged, { runnerId: runnerId(), heartbeatAt: new Date() })) !== 1) continue;
      await audit(db, kind, row.id, SYSTEM_ACTOR, "takeover", { runnerId: row.runnerId }, { runnerId: runnerId() });
      kind.resume?.(db, row.id);
    }
    changed.push(row.id);
  }
  return changed;
}

export type JobCommand = "pause" | "resume" | "cancel";

/** Which states each command applies to, and the state it leaves. A failed job can be resumed: it goes on with what is left. */
export const COMMANDS: Record<JobCommand, { from: readonly string[]; to: string }> = {
  pause: { from: ["running"], to: "paused" },
  resume: { from: ["paused", "failed"], to: "running" },
  cancel: { from: ["running", "paused"], to: "cancelled" },
};

/**
 * Pause, resume or cancel a job of a kind that allows it. Resuming claims the job for this process and
 * runs it here; cancelling aborts this process's work in flight (another process's run notices at its
 * next heartbeat). Answers `not-allowed` for a job in a state the command does not apply to and
 * `changed` when another process changed it meanwhile; nothing is changed then.
 */
export async function commandJob<Row extends JobRowBase, Progress>(
  kind: JobKind<Row, Progress>,
  db: Db,
  { actor, row, command }: { actor: AuditActor; row: Row; command: JobCommand },
): Promise<{ ok: true } | { ok: false; reason: "not-allowed" | "changed" }> {
  if (!kind.commands) throw new Error(`${kind.name} jobs cannot be paused, resumed or cancelled`);
  const { from, to } = COMMANDS[command];
  if (!from.includes(row.state)) return { ok: false, reason: "not-allowed" };
  const data =
    command === "resume"
      ? { state: to, runnerId: runnerId(), heartbeatAt: new Date(), error: null, finishedAt: null }
      : { state: to, ...(command === "cancel" ? { finishedAt: new Date() } : {}) };
  if ((await kind.table(db).update({ id: row.id, state: row.state }, data)) !== 1) return { ok: false, reason: "changed" };
  if (command === "cancel") abortHere(kind, row.id);
  await audit(db, kind, row.id, actor, command, { state: row.state }, { state: to });
  if (command === "resume") {
    await kind.commands.beforeResume?.(db, row.id);
    kind.resume?.(db, row.id);
  }
  return { ok: true };
}

/** The audit row of a job event: `<prefix>.<event>`. */
export async function audit(
  db: Db,
  kind: Pick<JobKind, "audit">,
  id: string,
  actor: AuditActor,
  event: string,
  before: unknown,
  after: unknown,
): Promise<void> {
  await recordAudit(db, {
    actor,
    action: `${kind.audit.prefix}.${event}`,
    entityType: kind.audit.entityType,
    entityId: id,
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
  });
}
