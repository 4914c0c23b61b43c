import { createHash, randomBytes } from "node:crypto";
import { can } from "@/lib/domain/permissions";
import { toToken, type Token } from "@/lib/domain/tokens";
import { recordAudit } from "./audit";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { auditActor, authorizeCaller, isPerson, type Caller } from "./actor";

const TOKEN_PREFIX = "studio_";

/** Tokens carry 256 random bits, so a fast hash is the right tool (no password-style stretching). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A person may manage someone else's tokens only with tokens.manage-all; the command line may manage anyone's. */
function authorizeFor(actor: Caller, userId: string | undefined): void {
  authorizeCaller(actor, isPerson(actor) && userId === actor.id ? "tokens.manage-own" : "tokens.manage-all");
}

/** Create an API token for a person (`user`: id or email); the plain token is returned once and never stored. */
export async function createToken(
  { actor, user: userIdOrEmail, name }: { actor: Caller; user: string; name: string },
  prisma: Db = defaultDb(),
) {
  const user = await prisma.user.findFirst({ where: { OR: [{ id: userIdOrEmail }, { email: userIdOrEmail.toLowerCase() }] } });
  if (!user) throw appError("not_found", "error.personMissing", { who: userIdOrEmail });
  authorizeFor(actor, user.id);
  if (user.isDisabled) throw appError("conflict", "error.personDisabled", { email: user.email });
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await prisma.$transaction(async (tx) => {
    const r = await tx.apiToken.create({
      data: { userId: user.id, name: name.trim() || "token", tokenHash: hashToken(token), prefix: token.slice(0, 12) },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "token.create",
      entityType: "token",
      entityId: r.id,
      after: { user: user.email, name: r.name, prefix: r.prefix },
    });
    return r;
  });
  return { token, id: row.id, prefix: row.prefix, name: row.name, userEmail: user.email };
}

/** One person's tokens (`userId`), or everyone's; newest first. */
export async function listTokens({ actor, userId }: { actor: Caller; userId?: string }, prisma: Db = defaultDb()): Promise<Token[]> {
  authorizeFor(actor, userId);
  const rows = await prisma.apiToken.findMany({
    where: userId ? { userId } : {},
    include: { user: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) =>
    toToken({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      userEmail: r.user.email,
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      revokedAt: r.revokedAt,
    }),
  );
}

/** Revoke a token. Someone else's token is "not found" to a person who may not manage every token. */
export async function revokeToken({ actor, id }: { actor: Caller; id: string }, prisma: Db = defaultDb()): Promise<void> {
  authorizeCaller(actor, "tokens.manage-own");
  const ownerId = isPerson(actor) && !can(actor, "tokens.manage-all") ? actor.id : undefined;
  const row = await prisma.apiToken.findUnique({ where: { id } });
  if (!row || (ownerId && row.userId !== ownerId)) throw appError("not_found", "error.tokenMissing", { id });
  if (row.revokedAt) return;
  await prisma.$transaction(async (tx) => {
    await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "token.revoke",
      entityType: "token",
      entityId: id,
      before: { revokedAt: null },
      after: { revokedAt: "now" },
    });
  });
}

/** The active person a bearer token belongs to, or null. */
export async function userForToken(token: string, prisma: Db = defaultDb()) {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row || row.revokedAt || row.user.isDisabled) return null;
  // Touch at most once a minute, so a busy pipeline does not write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    // A note, not the request's work: a database that cannot take it (a full disk) must not turn
    // every token request, reads included, into an error; the write the request itself makes says so.
    await prisma.apiToken
      .update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
      .catch((e: unknown) => console.error("could not record when an API token was last used", e));
  }
  return row.user;
}
