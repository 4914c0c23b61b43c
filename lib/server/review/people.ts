import type { Db, Tx } from "../db";

/** The email of each person id given (ids repeated or null are fine), for naming who holds or decided something. */
export async function emails(prisma: Db | Tx, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const users = await prisma.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}
