import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  goldAccuracySchema,
  goldMarkResultSchema,
  goldRateResultSchema,
  goldRatesSchema,
  type GoldMarkInput,
  type GoldRateInput,
} from "@/lib/domain/gold";
import { getJson, sendJson } from "./fetcher";
import { trajectoryKeys } from "./trajectories";

export const goldKeys = {
  all: ["gold"] as const,
  rates: () => [...goldKeys.all, "rates"] as const,
  accuracy: () => ["dashboard", "gold"] as const,
};

/** Each person's accuracy against gold tasks (GET /api/dashboard/gold). */
export const goldAccuracyQuery = () =>
  queryOptions({
    queryKey: goldKeys.accuracy(),
    queryFn: ({ signal }) => getJson("/api/dashboard/gold", goldAccuracySchema, signal),
    refetchInterval: 60_000,
  });

/** Every project's gold rate and gold tasks (GET /api/gold/rate, admins). */
export const goldRatesQuery = () =>
  queryOptions({ queryKey: goldKeys.rates(), queryFn: ({ signal }) => getJson("/api/gold/rate", goldRatesSchema, signal) });

/** Set one project's gold rate (PUT /api/gold/rate). */
export function useSetGoldRate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: GoldRateInput) => sendJson("PUT", "/api/gold/rate", input, goldRateResultSchema),
    onSettled: () => void client.invalidateQueries({ queryKey: goldKeys.rates() }),
  });
}

/** Mark approved trajectories as gold tasks, or unmark them (POST /api/gold). */
export function useMarkGold() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: GoldMarkInput) => sendJson("POST", "/api/gold", input, goldMarkResultSchema),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.lists() });
      void client.invalidateQueries({ queryKey: goldKeys.rates() });
    },
  });
}
