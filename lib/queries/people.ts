import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { roleSchema } from "@/lib/domain/permissions";
import { getJson, sendJson } from "./fetcher";
import { tokenKeys } from "./tokens";

// Wire shapes of /api/users and /api/me: the route handlers type their answers with these, the client parses them.

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
export const resetPasswordInput = z.object({ password: z.string().min(8, "must be at least 8 characters").max(256).optional() });

/** A person as the API shows them (dates as ISO strings). */
export function toPerson(p: { id: string; email: string; name: string; role: Person["role"]; isDisabled: boolean; locale: string; createdAt: Date }): Person {
  return { id: p.id, email: p.email, name: p.name, role: p.role, isDisabled: p.isDisabled, locale: p.locale, createdAt: p.createdAt.toISOString() };
}

export const peopleKeys = {
  all: ["people"] as const,
  list: () => [...peopleKeys.all, "list"] as const,
  me: () => ["me"] as const,
};

export const peopleQuery = () =>
  queryOptions({ queryKey: peopleKeys.list(), queryFn: ({ signal }) => getJson("/api/users", peopleSchema, signal) });

export type CreatePersonInput = { email: string; name?: string; role: Person["role"]; password?: string };

export function useCreatePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePersonInput) => sendJson("POST", "/api/users", input, createdPersonSchema),
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

export type UpdatePersonInput = { id: string; role?: Person["role"]; isDisabled?: boolean; name?: string };

export function useUpdatePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: UpdatePersonInput) => sendJson("PATCH", `/api/users/${encodeURIComponent(id)}`, patch, personAnswerSchema),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: peopleKeys.all });
      // Disabling a person revokes their tokens.
      void client.invalidateQueries({ queryKey: tokenKeys.all });
    },
  });
}

export function useResetPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson("POST", `/api/users/${encodeURIComponent(id)}/password`, {}, newPasswordSchema),
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** Change the signed-in person's own language or name (PATCH /api/me). */
export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: { locale?: "en" | "zh"; name?: string }) => sendJson("PATCH", "/api/me", patch, personAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.me() }),
  });
}
