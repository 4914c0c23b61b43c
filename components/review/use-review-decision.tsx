import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { StepFix } from "@/lib/domain/review";
import type { TrajectoryView } from "@/lib/domain/views";
import { deleteClaim, postDecision, postNextReview, reviewKeys } from "@/lib/queries/review";
import { trajectoryKeys } from "@/lib/queries/trajectories";

/**
 * What the reviewer can do with the trajectory: decide (approve, with the fixes, or send back with the
 * reason), leave it without deciding, or start the next review.
 */
export function useReviewDecision(trajectory: TrajectoryView, reason: string, fixList: StepFix[], hasFixError: boolean) {
  const router = useRouter();
  const client = useQueryClient();
  const next = useMutation({ mutationFn: postNextReview });
  const leave = useMutation({
    mutationFn: () => deleteClaim(trajectory.id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: reviewKeys.queue() });
      router.push("/reviews");
    },
  });
  const decide = useMutation({
    mutationFn: (decision: "approve" | "reject") =>
      postDecision(trajectory.id, {
        decision,
        comment: reason.trim() || undefined,
        version: trajectory.version,
        fixes: decision === "approve" ? fixList : [],
      }),
    onSuccess: async (_r, decision) => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      void client.invalidateQueries({ queryKey: reviewKeys.queue() });
      void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectory.id) });
      void client.invalidateQueries({ queryKey: reviewKeys.context(trajectory.id) });
      // Move on: the next review, or back to the queue when nothing is left.
      const nextId = await postNextReview().catch(() => null);
      router.push(nextId ? `/reviews/${nextId}?after=${decision}` : `/reviews?after=${decision}`);
    },
  });
  const startNext = async () => {
    const nextId = await next.mutateAsync().catch(() => undefined);
    if (nextId) router.push(`/reviews/${nextId}`);
    else if (nextId === null) router.push("/reviews?after=none");
  };
  const approve = () => !decide.isPending && !hasFixError && decide.mutate("approve");
  const requestChanges = () => !decide.isPending && reason.trim() !== "" && decide.mutate("reject");
  return { next, leave, decide, startNext, approve, requestChanges };
}

export type ReviewDecision = ReturnType<typeof useReviewDecision>;
