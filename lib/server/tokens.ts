import { createHash, randomBytes } from "node:crypto";
import { recordAudit, type AuditActor } from "./audit";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";

const TOKEN_PREFIX = "studio_";

/** Tokens carry 256 random bits, so a fast hash is the right tool (no password-style stretching). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type TokenView = { id: string; name: string; prefix: string; userEmail: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

/** Create an API token for a person; the plain token is returned once and never stored. */
export async function createToken(actor: AuditActor, userIdOrEmail: string, name: string, prisma: Db = defaultDb()) {
  const user = await prisma.user.findFirst({ where: { OR: [{ id: userIdOrEmail }, { email: userIdOrEmail.toLowerCase() }] } });
  if (!user) throw new AppError("not_found", `no person with id or email ${userIdOrEmail}`);
  if (user.isDisabled) throw new AppError("conflict", `${user.email} is disabled`);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await prisma.$transaction(async (tx) => {
    const r = await tx.apiToken.create({ data: { userId: user.id, name: name.trim() || "token", tokenHash: hashToken(token), prefix: token.slice(0, 12) } });
    await recordAudit(tx, { actor, action: "token.create", entityType: "token", entityId: r.id, after: { user: user.email, name: r.name, prefix: r.prefix } });
    return r;
  });
  return { token, id: row.id, prefix: row.prefix, name: row.name, userEmail: user.email };
}

export async function listTokens(filter: { userId?: string } = {}, prisma: Db = defaultDb()): Promise<TokenView[]> {
  const rows = await prisma.apiToken.findMany({ where: filter.userId ? { userId: filter.userId } : {}, include: { user: { select: { email: true } } }, orderBy: { createdAt: "desc" } });
  return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, userEmail: r.user.email, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt }));
}

/** Revoke a token; `ownerId` restricts it to that person's tokens. */
export async function revokeToken(actor: AuditActor, id: string, ownerId?: string, prisma: Db = defaultDb()): Promise<void> {
  const row = await prisma.apiToken.findUnique({ where: { id } });
  if (!row || (ownerId && row.userId !== ownerId)) throw new AppError("not_found", `no token ${id}`);
  if (row.revokedAt) return;
  await prisma.$transaction(async (tx) => {
    await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, { actor, action: "token.revoke", entityType: "token", entityId: id, before: { revokedAt: null }, after: { revokedAt: "now" } });
  });
}

/** The active person a bearer token belongs to, or null. */
export async function userForToken(token: string, prisma: Db = defaultDb()) {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row || row.revokedAt || row.user.isDisabled) return null;
  // Touch at most once a minute, so a busy pipeline does not write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return row.user;
}
