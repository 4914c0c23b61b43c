"use client";

import dynamic from "next/dynamic";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Editor } from "@/lib/canvas/editor";
import { CANVAS_COLOURS, stepMarks } from "@/lib/canvas/overlay";
import { isTypingTarget } from "@/lib/canvas/shortcuts";
import { DISPLAY_VARIANT_WIDTH, transformOf, variantFor, zoomPercent, type Layer, type View } from "@/lib/canvas/view";
import type { Box } from "@/lib/domain/geometry";
import { describeToolCall, isPointless, pyJsonDumps, type StepToolCall } from "@/lib/domain/tool-call";
import type { MessageKey } from "@/lib/i18n";
import { useT } from "@/lib/i18n/react";
import { screenshotUrl } from "@/lib/queries/trajectories";
import { settingControl } from "@/components/ui/person-settings";
import { Loading } from "@/components/ui/states";
import type { CopyMark } from "./copy-marks";
import type { StageImage } from "./konva-stage";
import { useImage } from "./use-image";
import { useViewState } from "./use-view";
import "./step-canvas.css";

// Konva touches `window` on import, so the stage only ever renders in the browser.
const KonvaStage = dynamic(() => import("./konva-stage").then((m) => m.KonvaStage), { ssr: false, loading: () => <Loading /> });

/** Key hints shown in the zoom buttons' tooltips, read from the page's shortcut registry. */
export type ZoomHints = Partial<Record<"zoomIn" | "zoomOut" | "fit" | "actual", string>>;

export type StepCanvasProps = {
  /** Zoom, pan and layers: the viewer's and review's own view, or `editor.view`. */
  view: View;
  /** Identifies the screenshot shown (a step id): a new one starts fitted. */
  stepKey: string;
  screenshot: { sha256: string; width: number; height: number };
  /** The model's action as imported, and the action as corrected (original pixels). */
  model: StepToolCall;
  corrected: StepToolCall;
  /** The boxes that came with the import (first: the target, then other acceptable ones) and the corrected box. */
  importedBoxes: Box[];
  correctedBox: Box | null;
  /** A model suggestion not yet accepted (original pixels): drawn in its own colour, with its legend entry. */
  suggested?: StepToolCall | null;
  /** An evaluation run's failed prediction on this step (original pixels): the model's wrong action, drawn red and dashed. */
  failedPrediction?: StepToolCall | null;
  /** The screen's elements (original pixels), when the step came with them: drawn faintly with the imported boxes; the box tool snaps to them. */
  elementBoxes?: Box[];
  /** Edit mode: the editor's tools get the pointer (space+drag still pans). Read-only without it. */
  editor?: Editor;
  isBoxSelected?: boolean;
  /** Steps after the cut are drawn faded. */
  isDimmed?: boolean;
  /** Step index reported to the step-switch benchmark once drawn. */
  paintIndex?: number;
  onImageLoaded?: (isLoaded: boolean) => void;
  hints?: ZoomHints;
  /** A canvas inside a long page (review): a plain wheel scrolls the page, Ctrl/⌘+wheel zooms. */
  isWheelZoomWithModifier?: boolean;
  /** "side": legend and zoom beside the stage (viewer, editor); "below": under it (narrow places such as review). */
  layout?: "side" | "below";
  /** The page's own controls (step navigation, tools), at the top of the side panel. */
  header?: ReactNode;
  /** Extra content at the end of the side panel. */
  children?: ReactNode;
  /**
   * The side column folded away (the person's setting): the page's controls move to a one-line bar
   * above the stage and the legend and zoom buttons are hidden, so the screenshot gets the width.
   */
  isSideCollapsed?: boolean;
  /** Fold or unfold the side column; without it the column cannot be folded. */
  onToggleSide?: () => void;
  /** The folding is a person's setting: the toggle waits (disabled, busy) until their settings have arrived. */
  isSideToggleWaiting?: boolean;
  className?: string;
  /** A page's own marks (adjudication: each copy's action in its colour), drawn in a layer of their own. */
  copyMarks?: CopyMark[];
  /** Replaces the model/correction legend, for a page that says what its own marks mean (adjudication). */
  legend?: ReactNode;
};

/**
 * The one step canvas: the screenshot with the model's and the corrected action and both boxes,
 * each layer toggled in the legend, zoom at the pointer (wheel, keys), space+drag pan, Fit and
 * 100 % (one screenshot pixel per screen pixel). The full-resolution original is fetched once the
 * zoom needs more pixels than the display variant has. Labels live in the legend, never over the
 * screenshot.
 */
export function StepCanvas(props: StepCanvasProps) {
  const {
    view,
    stepKey,
    screenshot,
    model,
    corrected,
    importedBoxes,
    correctedBox,
    suggested = null,
    failedPrediction = null,
    elementBoxes = NO_BOXES,
    editor,
    isBoxSelected,
    isDimmed,
    paintIndex,
    onImageLoaded,
    hints = {},
    layout = "side",
    header,
    children,
    className,
    isWheelZoomWithModifier,
    isSideCollapsed = false,
    onToggleSide,
    isSideToggleWaiting = false,
    copyMarks,
    legend,
  } = props;
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const isOver = useRef(false);
  const [isSpaceHeld, setSpaceHeld] = useState(false);

  const size = useMemo(() => ({ width: screenshot.width, height: screenshot.height }), [screenshot.width, screenshot.height]);
  useLayoutEffect(() => view.setImage(stepKey, size), [view, stepKey, size]);
  useViewportOf(host, view);
  useSpacePan(isOver, setSpaceHeld);

  const { scale, dpr, isFit, wanted, isOriginalLoading, image } = useStageImage(view, screenshot.sha256, size);
  const isLoaded = Boolean(image.element);
  useEffect(() => onImageLoaded?.(isLoaded), [isLoaded, onImageLoaded]);

  const marks = useMemo(
    () => stepMarks({ original: model, corrected, importedBoxes, correctedBox, suggested, failedPrediction }),
    [model, corrected, importedBoxes, correctedBox, suggested, failedPrediction],
  );
  const percent = Math.round(zoomPercent({ scale, x: 0, y: 0 }, dpr));
  const sideToggle = onToggleSide && (
    <SideToggle isSideCollapsed={isSideCollapsed} isWaiting={isSideToggleWaiting} onToggle={onToggleSide} />
  );

  return (
    <div className={`step-canvas is-${isSideCollapsed ? "collapsed" : layout}${className ? ` ${className}` : ""}`}>
      {isSideCollapsed && (
        <div className="step-canvas-bar">
          {header}
          {sideToggle}
        </div>
      )}
      <div
        className="step-canvas-stage"
        ref={host}
        data-pan={isSpaceHeld || !editor ? "" : undefined}
        onPointerEnter={() => void (isOver.current = true)}
        onPointerLeave={() => void (isOver.current = false)}
      >
        <KonvaStage
          view={view}
          size={size}
          image={image}
          marks={marks}
          elementBoxes={elementBoxes}
          isDimmed={isDimmed}
          editor={editor}
          isBoxSelected={isBoxSelected}
          isSpaceHeld={isSpaceHeld}
          paintIndex={paintIndex}
          isWheelZoomWithModifier={isWheelZoomWithModifier}
          text={{ loading: t("canvas.loading"), unavailable: t("canvas.unavailable") }}
          copyMarks={copyMarks}
        />
      </div>
      {!isSideCollapsed && (
        <aside className="step-canvas-side" aria-label={t("canvas.legend")}>
          {sideToggle}
          {header}
          <ZoomControls view={view} percent={percent} isFit={isFit} hints={hints} />
          <p className="canvas-variant" data-variant={image.variant}>
            {wanted === "original" && isOriginalLoading
              ? t("canvas.variant.loading")
              : image.variant === "original"
                ? t("canvas.variant.original")
                : t("canvas.variant.display", { width: Math.min(DISPLAY_VARIANT_WIDTH, screenshot.width) })}
          </p>
          {legend ?? (
            <Legend
              view={view}
              model={model}
              corrected={corrected}
              importedBoxes={marks.importedBoxes}
              elementCount={elementBoxes.length}
              correctedBox={correctedBox}
              suggested={suggested}
              failedPrediction={failedPrediction}
            />
          )}
          <p className="canvas-hint">{t(isWheelZoomWithModifier ? "canvas.hintModifier" : "canvas.hint")}</p>
          {children}
        </aside>
      )}
    </div>
  );
}

/**
 * The screenshot to draw: the display variant, or the full-resolution original once the zoom needs
 * more pixels than the display variant has (and it has arrived). Also the zoom the choice was made at.
 */
function useStageImage(view: View, sha256: string, size: { width: number; height: number }) {
  const scale = useViewState(view, (s) => transformOf(s).scale);
  const dpr = useViewState(view, (s) => s.dpr);
  const isFit = useViewState(view, (s) => s.camera === null);
  const wanted = variantFor(scale, size, dpr);
  const display = useImage(screenshotUrl(sha256, "display"));
  const original = useImage(wanted === "original" ? screenshotUrl(sha256, "original") : null);
  const image: StageImage =
    wanted === "original" && original.image
      ? { element: original.image, variant: "original", isError: false }
      : { element: display.image, variant: "display", isError: display.isError };
  return { scale, dpr, isFit, wanted, isOriginalLoading: !original.image, image };
}

/** Fold or unfold the side column (the person's setting). */
function SideToggle({ isSideCollapsed, isWaiting, onToggle }: { isSideCollapsed: boolean; isWaiting: boolean; onToggle: () => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="btn btn-small side-toggle"
      {...settingControl(!isWaiting)}
      aria-expanded={!isSideCollapsed}
      aria-label={t(isSideCollapsed ? "layout.legendExpand" : "layout.legendCollapse")}
      title={`${t(isSideCollapsed ? "layout.legendExpand" : "layout.legendCollapse")}. ${t("layout.settingHint")}`}
      onClick={onToggle}
    >
      {isSideCollapsed ? "«" : "»"}
    </button>
  );
}

/** Zoom out, the zoom level, zoom in, 100 % and Fit; the buttons zoom at the stage's centre. */
function ZoomControls({ view, percent, isFit, hints }: { view: View; percent: number; isFit: boolean; hints: ZoomHints }) {
  const t = useT();
  const centre = () => {
    const v = view.get().viewport;
    return [v.width / 2, v.height / 2] as [number, number];
  };
  const tip = (label: string, key?: string) => (key ? `${label} (${key})` : label);
  return (
    <div className="zoom-controls" role="group" aria-label={t("canvas.zoom")}>
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => view.zoomOut(centre())}
        aria-label={t("canvas.zoomOut")}
        title={tip(t("canvas.zoomOut"), hints.zoomOut)}
      >
        −
      </button>
      <output className="zoom-level" role="status" aria-label={t("canvas.zoomLevel")}>
        {percent} %
      </output>
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => view.zoomIn(centre())}
        aria-label={t("canvas.zoomIn")}
        title={tip(t("canvas.zoomIn"), hints.zoomIn)}
      >
        +
      </button>
      <button
        type="button"
        className="btn"
        aria-pressed={!isFit && percent === 100}
        onClick={() => view.zoomActual(centre())}
        title={tip(t("canvas.actualHint"), hints.actual)}
      >
        {t("canvas.actual")}
      </button>
      <button type="button" className="btn" aria-pressed={isFit} onClick={view.fit} title={tip(t("canvas.fitHint"), hints.fit)}>
        {t("canvas.fit")}
      </button>
    </div>
  );
}

const NO_BOXES: Box[] = [];

const SWATCH: Record<Layer, { color: string; dashed: boolean; shape: "ring" | "box" }> = {
  model: { color: CANVAS_COLOURS.model, dashed: true, shape: "ring" },
  corrected: { color: CANVAS_COLOURS.corrected, dashed: false, shape: "ring" },
  importedBox: { color: CANVAS_COLOURS.model, dashed: true, shape: "box" },
  correctedBox: { color: CANVAS_COLOURS.corrected, dashed: false, shape: "box" },
};

const LAYER_LABEL: Record<Layer, MessageKey> = {
  model: "canvas.layer.model",
  corrected: "canvas.layer.corrected",
  importedBox: "canvas.layer.importedBox",
  correctedBox: "canvas.layer.correctedBox",
};

/** What each colour means, what it shows for this step, and a toggle for each layer. */
function Legend({
  view,
  model,
  corrected,
  importedBoxes,
  elementCount,
  correctedBox,
  suggested,
  failedPrediction,
}: {
  view: View;
  model: StepToolCall;
  corrected: StepToolCall;
  importedBoxes: Box[];
  elementCount: number;
  correctedBox: Box | null;
  suggested: StepToolCall | null;
  failedPrediction: StepToolCall | null;
}) {
  const t = useT();
  const layers = useViewState(view, (s) => s.layers);
  const boxText = (b: Box | null | undefined) => (b ? `[${b.map((n) => Math.round(n)).join(", ")}]` : t("canvas.noBox"));
  const detail: Record<Layer, string> = {
    model: describeToolCall(model),
    corrected: pyJsonDumps(model) === pyJsonDumps(corrected) ? t("canvas.sameAsModel") : describeToolCall(corrected),
    importedBox:
      boxText(importedBoxes[0]) +
      (importedBoxes.length > 1 ? ` ${t("canvas.layer.candidates", { n: importedBoxes.length - 1 })}` : "") +
      (elementCount > 0 ? ` ${t("canvas.layer.elements", { n: elementCount })}` : ""),
    correctedBox: boxText(correctedBox),
  };
  return (
    <>
      <ul className="step-canvas-legend">
        {(Object.keys(SWATCH) as Layer[]).map((layer) => {
          const sw = SWATCH[layer];
          return (
            <li key={layer} data-layer={layer}>
              <label>
                <input type="checkbox" checked={layers[layer]} onChange={(e) => view.setLayer(layer, e.target.checked)} />
                <span
                  className={`swatch swatch-${sw.shape}`}
                  style={{ borderColor: sw.color, borderStyle: sw.dashed ? "dashed" : "solid" }}
                  aria-hidden
                />
                <span className="legend-name">{t(LAYER_LABEL[layer])}</span>
              </label>
              <code className="legend-detail">{detail[layer]}</code>
            </li>
          );
        })}
        {/* Only while a suggestion waits for Accept or Dismiss; no toggle: dismissing it is the way to hide it. */}
        {suggested && (
          <li data-layer="suggested">
            <label>
              <span className="swatch swatch-ring" style={{ borderColor: CANVAS_COLOURS.suggested, borderStyle: "dotted" }} aria-hidden />
              <span className="legend-name">{t("canvas.layer.suggested")}</span>
            </label>
            <code className="legend-detail">{describeToolCall(suggested)}</code>
          </li>
        )}
        {/* The model's wrong answer from an evaluation run: evidence, named in words as well as in red. */}
        {failedPrediction && (
          <li data-layer="failed-prediction">
            <label>
              <span
                className="swatch swatch-ring"
                style={{ borderColor: CANVAS_COLOURS.failedPrediction, borderStyle: "dashed" }}
                aria-hidden
              />
              <span className="legend-name">{t("canvas.layer.failedPrediction")}</span>
            </label>
            <code className="legend-detail">{describeToolCall(failedPrediction)}</code>
          </li>
        )}
      </ul>
      {/* Beside the picture, where the fix happens: a tap the model made without a point (the form says it too). */}
      {isPointless(corrected) && <p className="problem is-blocking legend-problem">{t("problem.toolCall.missingPoint")}</p>}
    </>
  );
}

/** Keep the view's stage size and screen density in step with the host element. */
function useViewportOf(host: React.RefObject<HTMLDivElement | null>, view: View) {
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const measure = (width: number, height: number) => {
      view.setDpr(window.devicePixelRatio || 1);
      view.setViewport({ width: Math.floor(width), height: Math.floor(height) });
    };
    const r = el.getBoundingClientRect();
    measure(r.width, r.height);
    const ro = new ResizeObserver(([entry]) => entry && measure(entry.contentRect.width, entry.contentRect.height));
    ro.observe(el);
    return () => ro.disconnect();
  }, [host, view]);
}

/**
 * Space held over the canvas turns every drag into a pan. The key's default (scrolling the page or
 * the side panel, pressing a focused button) is prevented; typing a space in a field is left alone.
 */
function useSpacePan(isOver: React.RefObject<boolean>, setHeld: (held: boolean) => void) {
  useEffect(() => {
    let isHeld = false;
    const down = (e: KeyboardEvent) => {
      if (e.key !== " " || isTypingTarget(e.target)) return;
      if (!isOver.current && !isHeld) return;
      e.preventDefault();
      if (!isHeld) {
        isHeld = true;
        setHeld(true);
      }
    };
    const up = (e: KeyboardEvent) => {
      if (e.key !== " " || !isHeld) return;
      e.preventDefault();
      isHeld = false;
      setHeld(false);
    };
    const release = () => {
      isHeld = false;
      setHeld(false);
    };
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    window.addEventListener("blur", release);
    return () => {
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
      window.removeEventListener("blur", release);
    };
  }, [isOver, setHeld]);
}
