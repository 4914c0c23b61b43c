import { randomBytes, randomUUID } from "node:crypto";
import { LIMITS } from "@/lib/domain/limits";
import type { z } from "zod";
import type { Actor } from "@/lib/domain/permissions";
import {
  createUserInput,
  toPerson,
  updateMeInput,
  updateUserInput,
  type CreateUserInput,
  type Person,
  type UpdateMeInput,
  type UpdateUserInput,
} from "@/lib/domain/people";
import { recordAudit, changedFields } from "./audit";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError } from "../errors";
import { auditActor, authorizeCaller, type Caller } from "./session";
import type { Auth } from "./auth";
export { auditFacets, readAudit } from "./audit-query";
export { type AuditActor, auditStatement, changedFields, CLI_ACTOR, recordAudit, SYSTEM_ACTOR } from "./audit";
export { isSealed, seal, unseal } from "./server-secret";
export { auditActor, authorize, authorizeCaller, BEARER, type Caller, getActor, isPerson, requireActor } from "./session";
export { getPersonSettings, savePersonSettings } from "./settings";
export { createToken, listTokens, revokeToken } from "./tokens";

/**
 * The better-auth instance, loaded on first use: the people face is imported by nearly every use case, and a command
 * that signs nobody in (an export, `studio stats`) never loads better-auth (scripts/build-cli.test.ts).
 */
export async function betterAuth(): Promise<Auth> {
  return (await import("./auth")).auth();
}

const personSelect = { id: true, email: true, name: true, role: true, isDisabled: true, locale: true, createdAt: true } as const;

/** A password people can type: 16 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** Create a person with a password (generated when not given); returns the password once. */
export async function createUser(
  { actor, ...input }: { actor: Caller } & CreateUserInput,
  prisma: Db = defaultDb(),
): Promise<{ person: Person; password: string }> {
  authorizeCaller(actor, "people.manage");
  const data = createUserInput.parse(input);
  if (await prisma.user.findUnique({ where: { email: data.email } }))
    throw appError("conflict", "error.personExists", { email: data.email });
  const password = data.password ?? generatePassword();
  const hash = await (await import("./auth")).hashPassword(password);
  const id = randomUUID();
  const user = await prisma.$transaction(async (tx) => {
    const u = await tx.user.create({
      data: { id, email: data.email, name: data.name || data.email.split("@")[0]!, role: data.role },
      select: personSelect,
    });
    await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: hash } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "user.create",
      entityType: "user",
      entityId: id,
      after: { email: u.email, name: u.name, role: u.role },
    });
    return u;
  });
  return { person: asPerson(user), password };
}

/** Everyone with a studio account, by email. */
export async function listUsers({ actor }: { actor: Caller }, prisma: Db = defaultDb()): Promise<Person[]> {
  authorizeCaller(actor, "people.manage");
  return (await prisma.user.findMany({ select: personSelect, orderBy: { email: "asc" } })).map(asPerson);
}

const asPerson = (u: Omit<Person, "createdAt" | "role"> & { role: string; createdAt: Date }): Person =>
  toPerson({ ...u, role: u.role as Person["role"] });

async function findUser(idOrEmail: string, prisma: Db) {
  const user = await prisma.user.findFirst({
    where: { OR: [{ id: idOrEmail }, { email: idOrEmail.toLowerCase() }] },
    select: personSelect,
  });
  if (!user) throw appError("not_found", "error.personMissing", { who: idOrEmail });
  return user;
}

/**
 * Change a person's role, name, language or disabled flag. Disabling signs them out everywhere and
 * revokes their API tokens at once. An admin cannot demote or disable the last active admin.
 */
export async function updateUser(
  { actor, id, ...input }: { actor: Caller; id: string } & UpdateUserInput,
  prisma: Db = defaultDb(),
): Promise<Person> {
  authorizeCaller(actor, "people.manage");
  return applyUpdate(actor, id, updateUserInput.parse(input), prisma);
}

/** Change your own language or display name (never your role or disabled flag). */
export async function updateMe({ actor, ...input }: { actor: Actor } & UpdateMeInput, prisma: Db = defaultDb()): Promise<Person> {
  return applyUpdate(actor, actor.id, updateMeInput.parse(input), prisma);
}

async function applyUpdate(actor: Caller, idOrEmail: string, patch: z.output<typeof updateUserInput>, prisma: Db): Promise<Person> {
  const before = await findUser(idOrEmail, prisma);
  const losesAdmin = before.role === "admin" && !before.isDisabled && ((patch.role && patch.role !== "admin") || patch.isDisabled === true);
  if (losesAdmin && (await prisma.user.count({ where: { role: "admin", isDisabled: false } })) <= 1) {
    throw appError("conflict", "error.lastAdmin");
  }
  return prisma.$transaction(async (tx) => {
    const after = await tx.user.update({ where: { id: before.id }, data: patch, select: personSelect });
    if (patch.isDisabled) {
      await tx.session.deleteMany({ where: { userId: before.id } });
      await tx.apiToken.updateMany({ where: { userId: before.id, revokedAt: null }, data: { revokedAt: new Date() } });
    }
    const diff = changedFields(before as unknown as Record<string, unknown>, patch);
    if (Object.keys(diff.after).length > 0) {
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: patch.isDisabled ? "user.disable" : "user.update",
        entityType: "user",
        entityId: before.id,
        ...diff,
      });
    }
    return asPerson(after);
  });
}

/**
 * Set a new password (generated when not given), sign the person out everywhere and revoke their
 * API tokens: whoever knew the old password may have made one. The audit row counts both.
 */
export async function resetPassword(
  { actor, id: idOrEmail, password }: { actor: Caller; id: string; password?: string },
  prisma: Db = defaultDb(),
): Promise<string> {
  authorizeCaller(actor, "people.manage");
  const user = await findUser(idOrEmail, prisma);
  const next = password ?? generatePassword();
  if (next.length < LIMITS.passwordMin || next.length > LIMITS.passwordMax) {
    throw appError("unprocessable", "error.passwordLength", { min: LIMITS.passwordMin, max: LIMITS.passwordMax });
  }
  const hash = await (await import("./auth")).hashPassword(next);
  await prisma.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({ where: { userId: user.id, providerId: "credential" }, data: { password: hash } });
    if (updated.count === 0)
      await tx.account.create({
        data: { id: randomUUID(), accountId: user.id, providerId: "credential", userId: user.id, password: hash },
      });
    const sessions = await tx.session.deleteMany({ where: { userId: user.id } });
    const tokens = await tx.apiToken.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "user.password_reset",
      entityType: "user",
      entityId: user.id,
      after: { sessionsEnded: sessions.count, tokensRevoked: tokens.count },
    });
  });
  return next;
}

/**
 * The person with this email, if work may be given to them: they exist (404), are active (409) and are
 * not a reviewer (422: reviewers check work, they are not given any).
 */
export async function assignableByEmail(email: string, prisma: Db | Tx = defaultDb()) {
  const person = await prisma.user.findUnique({ where: { email } });
  if (!person) throw appError("not_found", "error.personMissingEmail", { email });
  if (person.isDisabled) throw appError("conflict", "error.personDisabled", { email: person.email });
  if (person.role === "reviewer") throw appError("unprocessable", "error.assignReviewer", { email: person.email });
  return person;
}
