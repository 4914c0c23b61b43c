"use client";

import { useEffect } from "react";
import { Layer, Stage } from "react-konva";
import type { Editor } from "@/lib/canvas/editor";
import type { StepMarks } from "@/lib/canvas/overlay";
import { transformOf, type ImageVariant, type View } from "@/lib/canvas/view";
import type { Box } from "@/lib/domain/geometry";
import { CopyMarksGroup, type CopyMark } from "./copy-marks";
import { MarksGroup, ScreenshotGroup } from "./konva-marks";
import { useStagePointer } from "./use-stage-pointer";
import { useViewState } from "./use-view";

declare global {
  interface Window {
    /** Last screenshot drawn: which step and when (performance.now()), for the step-switch benchmark. */
    __studioPaint?: { stepIndex: number; at: number };
  }
}

export type StageImage = { element: HTMLImageElement | undefined; variant: ImageVariant; isError: boolean };

type Props = {
  view: View;
  size: { width: number; height: number };
  image: StageImage;
  marks: StepMarks;
  /** The screen's elements (original pixels), drawn faintly with the imported boxes. */
  elementBoxes: Box[];
  /** Steps after the cut are drawn faded. */
  isDimmed?: boolean;
  /** Edit mode: pointer gestures go to the editor's tools, and the selected box shows its handles. */
  editor?: Editor;
  isBoxSelected?: boolean;
  /** Space is held: every drag pans, whatever the tool. */
  isSpaceHeld: boolean;
  /** Step index reported to window.__studioPaint once the screenshot is drawn. */
  paintIndex?: number;
  /** Only Ctrl/⌘+wheel (and pinch) zooms; a plain wheel scrolls the page (a canvas inside a long page). */
  isWheelZoomWithModifier?: boolean;
  text: { loading: string; unavailable: string };
  /** A page's own marks (adjudication's copies), drawn in a layer of their own above the canvas's marks. */
  copyMarks?: CopyMark[];
};

/**
 * The Konva stage: the screenshot and the marks over it, drawn in ORIGINAL screenshot pixels inside
 * one transformed group per layer (the view's transform), so positions are exact at any zoom; mark
 * sizes are divided by the scale to look the same on screen. Nodes carry names (`screenshot`,
 * `model-action`, `corrected-action`, `imported-box`, `corrected-box`, `candidate-box`, `element-box`, `snap-hover`,
 * `box-handle`)
 * so browser tests read what is drawn through Konva.stages. No text is drawn over the screenshot:
 * what the marks mean is in the legend beside the stage.
 */
export function KonvaStage({
  view,
  size,
  image,
  marks,
  elementBoxes,
  isDimmed,
  editor,
  isBoxSelected,
  isSpaceHeld,
  paintIndex,
  isWheelZoomWithModifier,
  text,
  copyMarks,
}: Props) {
  const viewport = useViewState(view, (s) => s.viewport);
  const layers = useViewState(view, (s) => s.layers);
  const dpr = useViewState(view, (s) => s.dpr);
  const camera = useViewState(view, (s) => s.camera);
  const imageSize = useViewState(view, (s) => s.image);
  const t = transformOf({ camera, image: imageSize, viewport });
  const { stageRef, hover, cursor, handlers } = useStagePointer({
    view,
    size,
    editor,
    isSpaceHeld,
    isWheelZoomWithModifier,
    viewportHeight: viewport.height,
  });
  const s = t.scale || 1;
  usePaintMark(image.element, paintIndex);

  if (viewport.width === 0 || viewport.height === 0 || t.scale === 0) return null;

  return (
    <Stage
      ref={stageRef}
      width={viewport.width}
      height={viewport.height}
      className="konva-stage"
      style={cursor ? { cursor } : undefined}
      {...handlers}
    >
      {/* Past 2 device pixels per screenshot pixel, pixels are drawn as crisp squares for precise work. */}
      <Layer listening={false} imageSmoothingEnabled={t.scale * dpr < 2}>
        <ScreenshotGroup t={t} s={s} size={size} image={image} isDimmed={isDimmed} text={text} />
      </Layer>
      <Layer listening={false}>
        <MarksGroup
          t={t}
          s={s}
          layers={layers}
          marks={marks}
          elementBoxes={elementBoxes}
          hover={hover}
          isHandlesShown={Boolean(editor && isBoxSelected)}
        />
      </Layer>
      {copyMarks && copyMarks.length > 0 && (
        <Layer listening={false}>
          <CopyMarksGroup t={t} s={s} marks={copyMarks} />
        </Layer>
      )}
    </Stage>
  );
}

/** Test and benchmark builds: report when the screenshot of step `paintIndex` has been drawn (window.__studioPaint). */
function usePaintMark(element: HTMLImageElement | undefined, paintIndex: number | undefined) {
  useEffect(() => {
    // Test and benchmark builds only (NEXT_PUBLIC_STUDIO_TEST_HOOKS=1): `npm run build` leaves this out.
    if (process.env.NEXT_PUBLIC_STUDIO_TEST_HOOKS !== "1") return;
    if (!element || paintIndex === undefined) return;
    // Konva draws in the next animation frame; mark the frame after that as painted.
    let raf = requestAnimationFrame(() => {
      raf = requestAnimationFrame(() => {
        window.__studioPaint = { stepIndex: paintIndex, at: performance.now() };
      });
    });
    return () => cancelAnimationFrame(raf);
  }, [element, paintIndex]);
}
