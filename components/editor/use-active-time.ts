"use client";

import { useEffect, useRef } from "react";
import { ActiveClock, EFFORT_FLUSH_MS, MAX_REPORTED_MS } from "@/lib/domain/effort";
import { sendEffortReport } from "@/lib/queries/effort";

/** Pointer moves count as input at most this often (a moving mouse fires dozens a second). */
const MOVE_EVERY_MS = 1_000;

/**
 * Count this person's active time on the step on screen (lib/domain/effort.ts: input events, idle gaps
 * over a minute and unfocused or hidden time left out) and report it every 15 seconds, when the page is
 * hidden and when it closes.
 */
export function useActiveTime(trajectoryId: string, stepId: string): void {
  const step = useRef(stepId);
  useEffect(() => {
    step.current = stepId;
  }, [stepId]);

  useEffect(() => {
    const clock = new ActiveClock();
    let lastMove = 0;
    const isWatched = () => document.visibilityState === "visible" && document.hasFocus();
    const onInput = () => {
      if (isWatched()) clock.event(Date.now(), step.current);
    };
    const onMove = () => {
      const now = Date.now();
      if (now - lastMove < MOVE_EVERY_MS) return;
      lastMove = now;
      onInput();
    };
    const flush = () => {
      const steps = [...clock.take()]
        .map(([id, ms]) => ({ stepId: id, activeMs: Math.min(Math.round(ms), MAX_REPORTED_MS) }))
        .filter((s) => s.activeMs >= 1);
      if (steps.length > 0) sendEffortReport({ trajectoryId, steps });
    };
    const onHide = () => {
      clock.pause();
      flush();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") onHide();
    };
    const onBlur = () => clock.pause();
    const timer = window.setInterval(flush, EFFORT_FLUSH_MS);
    const inputs = ["keydown", "pointerdown", "wheel", "input"] as const;
    for (const e of inputs) window.addEventListener(e, onInput, { capture: true, passive: true });
    window.addEventListener("pointermove", onMove, { capture: true, passive: true });
    window.addEventListener("blur", onBlur);
    window.addEventListener("pagehide", onHide);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(timer);
      for (const e of inputs) window.removeEventListener(e, onInput, { capture: true });
      window.removeEventListener("pointermove", onMove, { capture: true });
      window.removeEventListener("blur", onBlur);
      window.removeEventListener("pagehide", onHide);
      document.removeEventListener("visibilitychange", onVisibility);
      flush();
    };
  }, [trajectoryId]);
}
