"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { createView } from "@/lib/canvas/view";
import { createViewerStore } from "@/lib/canvas/viewer";
import { trajectoryQuery } from "@/lib/queries/trajectories";
import type { TrajectoryView } from "@/lib/domain/views";
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
  const [view] = useState(() => createView());
  const stepIndex = useViewer(store, (s) => s.stepIndex);
  const step = trajectory.steps[stepIndex];

  const shortcuts = useStepShortcuts(store, view);
  useStepInUrl(stepIndex);
  usePrefetchScreenshots(trajectory, stepIndex);

  if (!step) return null;
  return (
    <main className="viewer">
      <ViewerHeader trajectory={trajectory} />
      <div className="viewer-main">
        <CanvasPane store={store} view={view} step={step} stepCount={trajectory.steps.length} shortcuts={shortcuts} />
        <StepPanel step={step} stepCount={trajectory.steps.length} />
      </div>
      <ThumbStrip steps={trajectory.steps} current={stepIndex} onPick={store.goTo} />
    </main>
  );
}
