import { LIMITS, truncate } from "@/lib/domain/limits";
import type { Db } from "../db";

/** Failed sign-ins allowed per account within the window before the account is locked for the rest of it. */
export const ACCOUNT_FAILURE_LIMIT = 5;
export const ACCOUNT_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** The key an attempt is counted under: the email as typed, trimmed, lower case and bounded. */
export function signInKey(email: string): string {
  return truncate(email.trim().toLowerCase(), LIMITS.email);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === "P2002";

/**
 * Take one of the account's attempt slots BEFORE the password is checked. Each step is a single
 * conditional statement, so simultaneous attempts are counted one by one by the database itself
 * (SQLite and PostgreSQL alike): at most ACCOUNT_FAILURE_LIMIT of them are ever evaluated in a
 * window, however many arrive at once. Returns false when the account is locked.
 */
export async function reserveSignInAttempt(prisma: Db, email: string, now = new Date()): Promise<boolean> {
  const key = signInKey(email);
  const since = new Date(now.getTime() - ACCOUNT_FAILURE_WINDOW_MS);
  for (let attempt = 0; attempt < 3; attempt++) {
    // First attempt on this account: the row is created holding our slot.
    try {
      await prisma.signInLimit.create({ data: { email: key, attempts: 1, windowStart: now } });
      return true;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    // The window ran out: start a new one, holding our slot (only one of several racers wins this).
    const reset = await prisma.signInLimit.updateMany({
      where: { email: key, windowStart: { lt: since } },
      data: { attempts: 1, windowStart: now },
    });
    if (reset.count === 1) return true;
    // Within the window: take a slot only while one is free.
    const taken = await prisma.signInLimit.updateMany({
      where: { email: key, attempts: { lt: ACCOUNT_FAILURE_LIMIT } },
      data: { attempts: { increment: 1 } },
    });
    if (taken.count === 1) return true;
    // Locked, unless the row vanished under us (swept as stale): then start over.
    if (await prisma.signInLimit.findUnique({ where: { email: key }, select: { email: true } })) return false;
  }
  return false;
}

/** Give a slot back: the attempt succeeded, or was refused before any password was checked. */
export async function releaseSignInAttempt(prisma: Db, email: string): Promise<void> {
  await prisma.signInLimit.updateMany({ where: { email: signInKey(email), attempts: { gt: 0 } }, data: { attempts: { decrement: 1 } } });
}

/** Forget windows that ended long ago (rows of emails nobody uses). */
export async function sweepSignInLimits(prisma: Db, now = new Date()): Promise<number> {
  const { count } = await prisma.signInLimit.deleteMany({
    where: { windowStart: { lt: new Date(now.getTime() - 2 * ACCOUNT_FAILURE_WINDOW_MS) } },
  });
  return count;
}
