import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./fetcher";
import { tokensSchema, createdTokenSchema, type TokenScope } from "@/lib/domain/tokens";
import { okSchema } from "@/lib/domain/views";

export const tokenKeys = {
  all: ["tokens"] as const,
  list: (scope: TokenScope) => [...tokenKeys.all, scope] as const,
};

export const tokensQuery = (scope: TokenScope) =>
  queryOptions({ queryKey: tokenKeys.list(scope), queryFn: ({ signal }) => getJson(`/api/tokens?scope=${scope}`, tokensSchema, signal) });

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => sendJson("POST", "/api/tokens", { name }, createdTokenSchema),
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson("DELETE", `/api/tokens/${encodeURIComponent(id)}`, undefined, okSchema),
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
