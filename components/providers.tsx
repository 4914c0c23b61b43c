"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiError } from "@/lib/queries/fetcher";

// A 4xx answer will not change on a retry; network hiccups and 5xx get one more try.
const retry = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser tab; created in state so a re-render never replaces the cache.
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
