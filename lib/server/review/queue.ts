import type { Actor } from "@/lib/domain/permissions";
import type { ReviewQueueRow } from "@/lib/domain/review";
import { db as defaultDb, type Db } from "../db";
import { authorize } from "../people";
import { emails } from "./people";

/** Work waiting for review, oldest submission first, with who is reviewing it now. */
export async function reviewQueue({ actor }: { actor: Actor }, prisma: Db = defaultDb(), now = new Date()): Promise<ReviewQueueRow[]> {
  authorize(actor, "trajectory.review");
  const select = {
    id: true,
    app: true,
    instruction: true,
    stepCount: true,
    submittedAt: true,
    outcome: true,
    reviewLeaseById: true,
    reviewLeaseUntil: true,
    assignee: { select: { email: true } },
    reviewDecisions: { orderBy: { createdAt: "desc" as const }, take: 1, select: { decision: true } },
  };
  // A copy (overlap or gold) is never reviewed on its own: overlap copies are judged together on the adjudication
  // page, which the queue offers once two of them are handed in; gold copies are scored against the gold answer.
  const rows = await prisma.trajectory.findMany({
    where: { status: "submitted", copyOfId: null },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    take: 500,
    select,
  });
  const overlapped = await prisma.trajectory.findMany({
    where: { overlap: { gt: 0 }, copyOfId: null, status: { not: "approved" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 500,
    select: {
      ...select,
      copyRows: { where: { copyKind: "overlap", status: { in: ["submitted", "approved"] } }, select: { submittedAt: true } },
    },
  });
  const ready = overlapped
    .filter((r) => r.copyRows.length >= 2)
    .map(({ copyRows, ...r }) => ({
      ...r,
      assignee: null,
      submittedAt: latest(copyRows.map((c) => c.submittedAt)),
      handedIn: copyRows.length,
    }));
  const list = [...rows.map((r) => ({ ...r, handedIn: 0 })), ...ready].sort(
    (a, b) => (a.submittedAt?.getTime() ?? 0) - (b.submittedAt?.getTime() ?? 0),
  );
  const holders = await emails(
    prisma,
    list.map((r) => r.reviewLeaseById),
  );
  return list.map(({ assignee, submittedAt, reviewLeaseById, reviewLeaseUntil, reviewDecisions, handedIn, ...r }) => ({
    ...r,
    submittedAt: submittedAt?.toISOString() ?? null,
    annotator: assignee?.email ?? null,
    /** Sent back before: this is a resubmission. */
    isResubmission: reviewDecisions[0]?.decision === "reject",
    reviewer: reviewLeaseById && reviewLeaseUntil && reviewLeaseUntil > now ? (holders.get(reviewLeaseById) ?? null) : null,
    /** Overlap copies handed in, when this row is to be adjudicated rather than reviewed (0 otherwise). */
    adjudicate: handedIn,
  }));
}

const latest = (dates: (Date | null)[]) => dates.reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
