import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { roleSchema, type Role } from "@/lib/domain/permissions";
import { LIMITS, text } from "@/lib/domain/limits";
import { recordAudit, changedFields, type AuditActor } from "./audit";
import { hashPassword } from "./auth";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";

export const createUserInput = z.object({
  email: text("email").trim().toLowerCase().email("must be an email address"),
  name: text("personName").trim().optional(),
  role: roleSchema,
  password: text("passwordMax").min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`).optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z.object({
  role: roleSchema.optional(),
  isDisabled: z.boolean().optional(),
  name: text("personName").trim().min(1).optional(),
  locale: z.enum(["en", "zh"]).optional(),
});

export type PersonView = { id: string; email: string; name: string; role: Role; isDisabled: boolean; locale: string; createdAt: Date };
const personSelect = { id: true, email: true, name: true, role: true, isDisabled: true, locale: true, createdAt: true } as const;

/** A password people can type: 16 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** Create a person with a password (generated when not given); returns the password once. */
export async function createUser(actor: AuditActor, input: CreateUserInput, prisma: Db = defaultDb()): Promise<{ user: PersonView; password: string }> {
  const data = createUserInput.parse(input);
  if (await prisma.user.findUnique({ where: { email: data.email } })) throw new AppError("conflict", `a person with email ${data.email} already exists`);
  const password = data.password ?? generatePassword();
  const hash = await hashPassword(password);
  const id = randomUUID();
  const user = await prisma.$transaction(async (tx) => {
    const u = await tx.user.create({
      data: { id, email: data.email, name: data.name || data.email.split("@")[0]!, role: data.role },
      select: personSelect,
    });
    await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: hash } });
    await recordAudit(tx, { actor, action: "user.create", entityType: "user", entityId: id, after: { email: u.email, name: u.name, role: u.role } });
    return u;
  });
  return { user: user as PersonView, password };
}

export async function listUsers(prisma: Db = defaultDb()): Promise<PersonView[]> {
  return (await prisma.user.findMany({ select: personSelect, orderBy: { email: "asc" } })) as PersonView[];
}

async function findUser(idOrEmail: string, prisma: Db) {
  const user = await prisma.user.findFirst({ where: { OR: [{ id: idOrEmail }, { email: idOrEmail.toLowerCase() }] }, select: personSelect });
  if (!user) throw new AppError("not_found", `no person with id or email ${idOrEmail}`);
  return user as PersonView;
}

/**
 * Change a person's role, name, language or disabled flag. Disabling signs them out everywhere and
 * revokes their API tokens at once. An admin cannot demote or disable the last active admin.
 */
export async function updateUser(actor: AuditActor, idOrEmail: string, input: z.input<typeof updateUserInput>, prisma: Db = defaultDb()): Promise<PersonView> {
  const patch = updateUserInput.parse(input);
  const before = await findUser(idOrEmail, prisma);
  const losesAdmin = before.role === "admin" && !before.isDisabled && ((patch.role && patch.role !== "admin") || patch.isDisabled === true);
  if (losesAdmin && (await prisma.user.count({ where: { role: "admin", isDisabled: false } })) <= 1) {
    throw new AppError("conflict", "this is the last active admin; make someone else admin first");
  }
  return prisma.$transaction(async (tx) => {
    const after = (await tx.user.update({ where: { id: before.id }, data: patch, select: personSelect })) as PersonView;
    if (patch.isDisabled) {
      await tx.session.deleteMany({ where: { userId: before.id } });
      await tx.apiToken.updateMany({ where: { userId: before.id, revokedAt: null }, data: { revokedAt: new Date() } });
    }
    const diff = changedFields(before as unknown as Record<string, unknown>, patch);
    if (Object.keys(diff.after).length > 0) {
      await recordAudit(tx, { actor, action: patch.isDisabled ? "user.disable" : "user.update", entityType: "user", entityId: before.id, ...diff });
    }
    return after;
  });
}

/**
 * Set a new password (generated when not given), sign the person out everywhere and revoke their
 * API tokens: whoever knew the old password may have made one. The audit row counts both.
 */
export async function resetPassword(actor: AuditActor, idOrEmail: string, password?: string, prisma: Db = defaultDb()): Promise<string> {
  const user = await findUser(idOrEmail, prisma);
  const next = password ?? generatePassword();
  if (next.length < LIMITS.passwordMin || next.length > LIMITS.passwordMax) {
    throw new AppError("unprocessable", `password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`);
  }
  const hash = await hashPassword(next);
  await prisma.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({ where: { userId: user.id, providerId: "credential" }, data: { password: hash } });
    if (updated.count === 0) await tx.account.create({ data: { id: randomUUID(), accountId: user.id, providerId: "credential", userId: user.id, password: hash } });
    const sessions = await tx.session.deleteMany({ where: { userId: user.id } });
    const tokens = await tx.apiToken.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await recordAudit(tx, { actor, action: "user.password_reset", entityType: "user", entityId: user.id, after: { sessionsEnded: sessions.count, tokensRevoked: tokens.count } });
  });
  return next;
}
