import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./fetcher";
import { tokenKeys } from "./tokens";
import { type Person, peopleSchema, createdPersonSchema, personAnswerSchema, newPasswordSchema } from "@/lib/domain/people";
export * from "@/lib/domain/people";

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
