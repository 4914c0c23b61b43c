"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { fitScale, type OverlayShape } from "@/lib/canvas/overlay";
import type { ViewerStore } from "@/lib/canvas/viewer";
import { screenshotUrl, type StepView } from "@/lib/queries/trajectories";
import { describeToolCall } from "@/lib/domain/tool-call";
import { fillNodes } from "@/components/ui/format";
import { Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";

// Konva touches `window` on import, so the canvas only ever renders in the browser.
const StepCanvas = dynamic(() => import("./step-canvas").then((m) => m.StepCanvas), { ssr: false, loading: () => <Loading /> });

type Props = { store: ViewerStore; step: StepView; shapes: OverlayShape[]; stepCount: number };

export function CanvasPane({ store, step, shapes, stepCount }: Props) {
  const t = useT();
  const stage = useRef<HTMLDivElement>(null);
  const [space, setSpace] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => {
      if (entry) setSpace({ width: Math.floor(entry.contentRect.width), height: Math.floor(entry.contentRect.height) });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const scale = fitScale(step.screenshot, space);
  useEffect(() => store.set({ scale }), [store, scale]);

  return (
    <section className="canvas-pane" aria-label={t("viewer.screenshot")}>
      <div className="canvas-bar">
        <button className="btn" type="button" onClick={store.prev} disabled={step.index === 0} aria-label={t("viewer.prev")} title={t("viewer.prevHint")}>
          ←
        </button>
        <span className="step-counter" role="status" aria-label={t("viewer.counter")}>
          {t("viewer.stepOf", { n: step.index + 1, count: stepCount })}
        </span>
        <button className="btn" type="button" onClick={store.next} disabled={step.index >= stepCount - 1} aria-label={t("viewer.next")} title={t("viewer.nextHint")}>
          →
        </button>
        <code className="action-summary">{describeToolCall(step.toolCall)}</code>
        <span className="keys-hint">
          {fillNodes(t("viewer.keys"), {
            prevNext: (
              <>
                <span className="kbd">←</span>
                <span className="kbd">→</span>
              </>
            ),
            homeEnd: (
              <>
                <span className="kbd">Home</span>
                <span className="kbd">End</span>
              </>
            ),
          })}
        </span>
      </div>
      <div className="canvas-stage" ref={stage}>
        {scale > 0 && (
          <StepCanvas
            imageUrl={screenshotUrl(step.screenshot.sha256)}
            width={Math.round(step.screenshot.width * scale)}
            height={Math.round(step.screenshot.height * scale)}
            scale={scale}
            shapes={shapes}
            onImageLoaded={(isImageLoaded) => store.set({ isImageLoaded })}
          />
        )}
      </div>
    </section>
  );
}
