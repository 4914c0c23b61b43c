import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./fetcher";
import { tokenKeys } from "./tokens";
import {
  createdPersonSchema,
  newPasswordSchema,
  peopleSchema,
  personAnswerSchema,
  type CreateUserInput,
  type UpdateMeInput,
  type UpdateUserInput,
} from "@/lib/domain/people";

export const peopleKeys = {
  all: ["people"] as const,
  list: () => [...peopleKeys.all, "list"] as const,
  me: () => ["me"] as const,
};

export const peopleQuery = () =>
  queryOptions({ queryKey: peopleKeys.list(), queryFn: ({ signal }) => getJson("/api/users", peopleSchema, signal) });

export function useCreatePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateUserInput) => sendJson("POST", "/api/users", input, createdPersonSchema),
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

export function useUpdatePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string } & UpdateUserInput) =>
      sendJson("PATCH", `/api/users/${encodeURIComponent(id)}`, patch, personAnswerSchema),
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
    mutationFn: (patch: UpdateMeInput) => sendJson("PATCH", "/api/me", patch, personAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: peopleKeys.me() }),
  });
}
