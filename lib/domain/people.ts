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

export const peopleSchema = z.object({ people: z.array(personSchema) });
/** A new person and their password, shown once. */
export const createdPersonSchema = z.object({ person: personSchema, password: z.string() });
export const personAnswerSchema = z.object({ person: personSchema });
export const newPasswordSchema = z.object({ password: z.string() });

const passwordInput = text("passwordMax").min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`);

/** POST /api/users (and `studio users add`): a new person; the password is generated when not given. */
export const createUserInput = z.object({
  email: text("email").trim().toLowerCase().email("must be an email address"),
  name: text("personName").trim().optional(),
  role: roleSchema,
  password: passwordInput.optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

/** PATCH /api/users/:id: any of a person's role, disabled flag, name or language. */
export const updateUserInput = z
  .object({
    role: roleSchema.optional(),
    isDisabled: z.boolean().optional(),
    name: text("personName").trim().min(1).optional(),
    locale: z.enum(["en", "zh"]).optional(),
  })
  .strict();
export type UpdateUserInput = z.input<typeof updateUserInput>;

/** PATCH /api/me: only your own language and name; a person may not change their own role or disabled flag. */
export const updateMeInput = updateUserInput.pick({ locale: true, name: true }).strict();
export type UpdateMeInput = z.input<typeof updateMeInput>;

/** POST /api/users/:id/password: the new password, or none to generate one. */
export const resetPasswordInput = z.object({ password: passwordInput.optional() }).strict();

/** A person as the API shows them (dates as ISO strings). */
export function toPerson(p: {
  id: string;
  email: string;
  name: string;
  role: Person["role"];
  isDisabled: boolean;
  locale: string;
  createdAt: Date;
}): Person {
  return {
    id: p.id,
    email: p.email,
    name: p.name,
    role: p.role,
    isDisabled: p.isDisabled,
    locale: p.locale,
    createdAt: p.createdAt.toISOString(),
  };
}
