"use client";

import { useEffect, useRef } from "react";
import { screenshotUrl } from "@/lib/queries/trajectories";
import type { StepView } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";
import { useEditorContext, useEditorState } from "../editor-context";

/** Every step's screenshot in a row; a click moves the editor there. */
export function ThumbStrip({ steps }: { steps: StepView[] }) {
  const t = useT();
  const { editor } = useEditorContext();
  const current = useEditorState((s) => s.stepIndex);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.children[current]?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [current]);
  return (
    <nav className="thumb-strip" aria-label={t("viewer.steps")}>
      <ol ref={list}>
        {steps.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="thumb"
              aria-label={t("viewer.thumb", { n: s.index + 1, action: s.toolCall.action })}
              aria-current={s.index === current ? "step" : undefined}
              onClick={() => editor.goTo(s.index)}
            >
              <img
                src={screenshotUrl(s.screenshot.sha256)}
                alt=""
                loading="lazy"
                width={54}
                height={Math.round((54 * s.screenshot.height) / s.screenshot.width)}
              />
              <span className="thumb-label">
                {s.index + 1} · {s.toolCall.action}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
