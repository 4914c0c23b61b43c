import { useEffect, useState } from "react";
import { postClaim } from "@/lib/queries/review";
import { ApiError } from "@/lib/queries/fetcher";

/** The claim is renewed every minute while the page is open (it lasts ten). */
const HEARTBEAT_MS = 60_000;

/** Claim the review while the page is open; someone else's claim comes back as the error. */
export function useClaim(id: string, isSubmitted: boolean) {
  const [error, setError] = useState<ApiError | null>(null);
  const [until, setUntil] = useState<string | null>(null);
  useEffect(() => {
    if (!isSubmitted) return;
    let isLive = true;
    const beat = () =>
      void postClaim(id)
        .then((r) => {
          if (!isLive) return;
          setError(null);
          setUntil(r.claim?.isMine ? r.claim.leaseUntil : null);
        })
        .catch((e: unknown) => {
          if (!isLive || !(e instanceof ApiError) || e.status !== 409) return;
          setError(e);
          setUntil(null);
        });
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    return () => {
      isLive = false;
      window.clearInterval(timer);
    };
  }, [id, isSubmitted]);
  return { error, until };
}
