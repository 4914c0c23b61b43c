"use client";

import { useEffect } from "react";
import { screenshotUrl } from "@/lib/queries/trajectories";
import type { TrajectoryView } from "@/lib/domain/views";
import { preloadImage } from "@/components/step-canvas/use-image";

/** Screenshots decoded ahead of the current step (and the one before), so moving on paints at once. */
const PREFETCH_AHEAD = 3;

/** Mirror the step into ?step=N (1-based) without a navigation, so a reload keeps the place. */
export function useStepInUrl(stepIndex: number) {
  useEffect(() => {
    const url = new URL(window.location.href);
    const wanted = String(stepIndex + 1);
    if (url.searchParams.get("step") === wanted) return;
    url.searchParams.set("step", wanted);
    window.history.replaceState(window.history.state, "", url);
  }, [stepIndex]);
}

/** Decode the next steps' screenshots (and the previous one) ahead of time, for the viewer and the editor. */
export function usePrefetchScreenshots(trajectory: TrajectoryView, stepIndex: number) {
  useEffect(() => {
    const around = [...trajectory.steps.slice(stepIndex + 1, stepIndex + 1 + PREFETCH_AHEAD), trajectory.steps[stepIndex - 1]];
    for (const s of around) if (s) void preloadImage(screenshotUrl(s.screenshot.sha256)).catch(() => undefined);
  }, [trajectory, stepIndex]);
}
