"use client";

import { useEffect, useRef, useState } from "react";

type Props = {
  /** The size the splitter controls (CSS pixels of the pane to its right). */
  value: number;
  min: number;
  max: number;
  label: string;
  title?: string;
  /** Called when a drag ends or a key is pressed: the new size, within [min, max]. */
  onChange: (value: number) => void;
};

/** Keyboard steps of the splitter, CSS pixels (Shift: a larger step). */
const STEP = 16;
const BIG_STEP = 64;

/**
 * A vertical splitter between two panes (WAI-ARIA window splitter): drag it, or focus it and use
 * ← → (Shift for larger steps), Home and End. Its value is the width of the pane on its RIGHT, so ←
 * makes that pane wider. While dragging only the local width changes; the setting is saved once, on release.
 */
export function Splitter({ value, min, max, label, title, onChange }: Props) {
  const [drag, setDrag] = useState<number | null>(null);
  const el = useRef<HTMLDivElement>(null);
  // Keys pressed faster than the saved setting comes back each build on the last one, not on a stale value.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const clamp = (v: number) => Math.round(Math.min(max, Math.max(min, v)));
  const shown = drag ?? value;
  useEffect(() => {
    el.current?.parentElement?.style.setProperty("--side-width", `${shown}px`);
  }, [shown]);
  const widthAt = (clientX: number) => {
    const box = el.current?.parentElement?.getBoundingClientRect();
    return box ? clamp(box.right - clientX) : shown;
  };
  return (
    <div
      ref={el}
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      title={title}
      aria-valuenow={shown}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        setDrag(widthAt(e.clientX));
      }}
      onPointerMove={(e) => {
        if (drag !== null) setDrag(widthAt(e.clientX));
      }}
      onPointerUp={(e) => {
        if (drag === null) return;
        const next = widthAt(e.clientX);
        setDrag(null);
        if (next !== value) onChange(next);
      }}
      onKeyDown={(e) => {
        const step = e.shiftKey ? BIG_STEP : STEP;
        const from = latest.current;
        const next =
          e.key === "ArrowLeft"
            ? from + step
            : e.key === "ArrowRight"
              ? from - step
              : e.key === "Home"
                ? max
                : e.key === "End"
                  ? min
                  : null;
        if (next === null) return;
        // The editor's own arrow keys (step navigation) must not also act.
        e.preventDefault();
        e.stopPropagation();
        const v = clamp(next);
        if (v === from) return;
        latest.current = v;
        onChange(v);
      }}
    />
  );
}
