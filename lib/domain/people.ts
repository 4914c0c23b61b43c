import { z } from "zod";
import { LIMITS, text } from "./limits";
import { roleSchema } from "./permissions";

// Wire shapes of the people API: route handlers shape their answers with these, the client parses them.

export const personSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  isDisabled: z.boolean(),
  locale: z.string(),
  createdAt: z.string(),
});
export type Person = z.infer<typeof personSchema>;

/** GET /api/me: the person asking (session or token). */
export const meSchema = z.object({ person: personSchema.pick({ id: true, email: true, name: true, role: true, locale: true }) });
export type Me = z.infer<typeof meSchema>["person"];

export const peopleSchema = z.object({ people: z.array(personSchema) });
/** A new person and their password, shown once. */
export const createdPersonSchema = z.object({ person: personSchema, password: z.string() });
export const personAnswerSchema = z.object({ person: personSchema });
export const newPasswordSchema = z.object({ password: z.string() });
export const resetPasswordInput = z.object({ password: text("passwordMax").min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`).optional() });

/** A person as the API shows them (dates as ISO strings). */
export function toPerson(p: { id: string; email: string; name: string; role: Person["role"]; isDisabled: boolean; locale: string; createdAt: Date }): Person {
  return { id: p.id, email: p.email, name: p.name, role: p.role, isDisabled: p.isDisabled, locale: p.locale, createdAt: p.createdAt.toISOString() };
}
