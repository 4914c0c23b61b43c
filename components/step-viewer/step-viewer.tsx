"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { overlayFor } from "@/lib/canvas/overlay";
import { createViewerStore, type ViewerStore } from "@/lib/canvas/viewer";
import { trajectoryQuery, type TrajectoryView } from "@/lib/queries/trajectories";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { CanvasPane } from "./canvas-pane";
import { StepPanel } from "./step-panel";
import { ThumbStrip } from "./thumb-strip";
import { useStepShortcuts } from "./use-step-shortcuts";
import { useViewer } from "./use-viewer";
import { ViewerHeader } from "./viewer-header";
import { usePrefetchScreenshots, useStepInUrl } from "./step-hooks";

export function StepViewer({ id, initialStepIndex }: { id: string; initialStepIndex: number }) {
  const t = useT();
  const query = useQuery(trajectoryQuery(id));
  if (query.error) {
    return (
      <main className="page">
        <ErrorBox error={query.error} />
      </main>
    );
  }
  if (!query.data) return <Loading>{t("viewer.loading")}</Loading>;
  return <LoadedViewer trajectory={query.data} initialStepIndex={initialStepIndex} />;
}

function LoadedViewer({ trajectory, initialStepIndex }: { trajectory: TrajectoryView; initialStepIndex: number }) {
  const [store] = useState(() => createViewerStore({ stepIndex: initialStepIndex, stepCount: trajectory.steps.length }));
  const stepIndex = useViewer(store, (s) => s.stepIndex);
  const step = trajectory.steps[stepIndex];
  const shapes = useMemo(() => (step ? overlayFor(step) : []), [step]);

  useEffect(() => store.set({ overlay: shapes }), [store, shapes]);
  useStepShortcuts(store);
  useStepInUrl(stepIndex);
  usePrefetchScreenshots(trajectory, stepIndex);
  useExposeForTests(store, trajectory);

  if (!step) return null;
  return (
    <main className="viewer">
      <ViewerHeader trajectory={trajectory} />
      <div className="viewer-main">
        <CanvasPane store={store} step={step} shapes={shapes} stepCount={trajectory.steps.length} />
        <StepPanel step={step} stepCount={trajectory.steps.length} />
      </div>
      <ThumbStrip steps={trajectory.steps} current={stepIndex} onPick={store.goTo} />
    </main>
  );
}



declare global {
  interface Window {
    __studio?: unknown;
  }
}

/** The viewer's state for browser tests: what is drawn, in original pixels, without reading pixels. */
function useExposeForTests(store: ViewerStore, trajectory: TrajectoryView) {
  useEffect(() => {
    const publish = () => {
      const s = store.get();
      const step = trajectory.steps[s.stepIndex];
      window.__studio = {
        trajectoryId: trajectory.id,
        stepIndex: s.stepIndex,
        stepCount: s.stepCount,
        toolCall: step?.toolCall,
        screenshot: step?.screenshot,
        overlay: s.overlay,
        scale: s.scale,
        isImageLoaded: s.isImageLoaded,
      };
    };
    publish();
    const unsubscribe = store.subscribe(publish);
    return () => {
      unsubscribe();
      window.__studio = undefined;
    };
  }, [store, trajectory]);
}
