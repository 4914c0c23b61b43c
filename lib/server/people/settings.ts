import type { Actor } from "@/lib/domain/permissions";
import {
  readStoredSettings,
  savePersonSettingsInput,
  type PersonSettings,
  type SavePersonSettingsInput,
} from "@/lib/domain/person-settings";
import { db as defaultDb, type Db } from "../db";

/** The asking person's own settings (an empty object until they change one). */
export async function getPersonSettings({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<PersonSettings> {
  const row = await prisma.personSetting.findUnique({ where: { userId: actor.id } });
  return row ? readStoredSettings(row.settingsJson) : {};
}

/**
 * Merge the given keys into the asking person's settings and return them all. Not audited: these
 * are a person's own view preferences (pane widths, toggles), never data anyone else sees.
 */
export async function savePersonSettings(
  { actor, ...input }: { actor: Actor } & SavePersonSettingsInput,
  prisma: Db = defaultDb(),
): Promise<PersonSettings> {
  const patch = savePersonSettingsInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const row = await tx.personSetting.findUnique({ where: { userId: actor.id } });
    const merged: PersonSettings = { ...(row ? readStoredSettings(row.settingsJson) : {}), ...patch };
    const settingsJson = JSON.stringify(merged);
    await tx.personSetting.upsert({
      where: { userId: actor.id },
      create: { userId: actor.id, settingsJson },
      update: { settingsJson },
    });
    return merged;
  });
}
