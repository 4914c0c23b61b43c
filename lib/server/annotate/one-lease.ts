// One task at a time per person ("Start next task"): every take runs its checks and its write in a
// transaction that first holds the taker's own row, so the presses of one person take their turn, and
// the second finds the task the first one took instead of taking another.
import type { TaskStatus } from "@/lib/domain/status";
import { dialectOf, type Dialect } from "../env";
import { urlOf, type Db, type Tx } from "../db";

/** A person's own unfinished work, in the order "Start next task" returns it: under way, sent back, new. */
export const OWN_ORDER: TaskStatus[] = ["in_progress", "rejected", "new"];

/** The dialect a take's transaction runs on (the row lock is written per dialect). */
export function takeDialect(prisma: Db): Dialect {
  return dialectOf(urlOf(prisma));
}

/**
 * Inside a take's transaction: wait for and hold the person's row until the transaction ends, then
 * return the unfinished work they hold now (a take of theirs that committed meanwhile), or null. On
 * PostgreSQL the row lock (SELECT ... FOR UPDATE) makes a second press wait for the first one's commit;
 * SQLite runs one writing transaction at a time already (lib/server/db/sqlite.ts), so there the check alone does it.
 */
export async function workHeldBy(tx: Tx, personId: string, dialect: Dialect): Promise<string | null> {
  if (dialect === "postgresql") await tx.$queryRaw`SELECT "id" FROM "user" WHERE "id" = ${personId} FOR UPDATE`;
  const held = await tx.trajectory.findMany({
    where: { assigneeId: personId, status: { in: OWN_ORDER }, isDiscarded: false },
    select: { id: true, status: true },
  });
  held.sort((a, b) => OWN_ORDER.indexOf(a.status as TaskStatus) - OWN_ORDER.indexOf(b.status as TaskStatus));
  return held[0]?.id ?? null;
}
