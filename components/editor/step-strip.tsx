"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { dirtyKeys } from "@/lib/canvas/editor";
import { isStepComplete } from "@/lib/domain/annotation";
import { openCommentsByStep } from "@/lib/domain/review";
import { commentsQuery } from "@/lib/queries/review";
import { useT } from "@/lib/i18n/react";
import { screenshotUrl } from "@/lib/queries/trajectories";
import type { StepView } from "@/lib/domain/views";
import { useEditorContext } from "./editor-context";
import { useEditor } from "./use-editor";
import { CommentIcon, ScissorsIcon } from "@/components/ui/icons";

/** Thumbnails with status marks: verdict colour, complete / incomplete, unsaved, after the cut. */
export function StepStrip({ steps }: { steps: StepView[] }) {
  const t = useT();
  const { editor } = useEditorContext();
  const list = useRef<HTMLOListElement>(null);
  const current = useEditor(editor, (s) => s.stepIndex);
  const doc = useEditor(editor, (s) => s.doc);
  const server = useEditor(editor, (s) => s.server);
  const conflicts = useEditor(editor, (s) => s.conflicts);
  const dirty = new Set(dirtyKeys({ doc, server }));
  const comments = useQuery(commentsQuery(editor.get().trajectoryId));
  const openComments = openCommentsByStep(comments.data?.rows ?? []);
  useEffect(() => {
    list.current?.children[current]?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [current]);
  const cut = doc.trajectory.cutAfter;
  return (
    <nav className="thumb-strip step-strip" aria-label={t("editor.steps")}>
      <ol ref={list}>
        {steps.map((s) => {
          const a = doc.steps[s.id]!;
          const isComplete = isStepComplete(a, s.screenshot);
          const isAfterCut = cut !== null && s.index > cut;
          const marks = [
            t(`verdict.${a.verdict}`),
            isComplete ? t("strip.complete") : t("strip.incomplete"),
            dirty.has(s.id) ? t("strip.unsaved") : null,
            conflicts[s.id] ? t("strip.conflict") : null,
            isAfterCut ? t("editor.afterCut") : null,
            openComments.get(s.index) ? t("review.strip.comments", { n: openComments.get(s.index)! }) : null,
          ].filter(Boolean);
          return (
            <li key={s.id} className={isAfterCut ? "is-after-cut" : undefined}>
              <button
                type="button"
                className={`thumb verdict-${a.verdict}`}
                aria-label={`${t("editor.stepN", { n: s.index + 1 })}: ${a.toolCall.action} · ${marks.join(" · ")}`}
                aria-current={s.index === current ? "step" : undefined}
                onClick={() => editor.goTo(s.index)}
              >
                <img
                  src={screenshotUrl(s.screenshot.sha256)}
                  alt=""
                  loading="lazy"
                  width={40}
                  height={Math.round((40 * s.screenshot.height) / s.screenshot.width)}
                />
                <span className="thumb-label">
                  <span className={`mark ${isComplete ? "mark-ok" : "mark-todo"}`} aria-hidden>
                    {isComplete ? "✓" : "•"}
                  </span>
                  {s.index + 1} · {a.toolCall.action}
                  {dirty.has(s.id) && (
                    <span className="mark mark-dirty" aria-hidden>
                      ●
                    </span>
                  )}
                  {openComments.get(s.index) ? (
                    <span className="mark mark-comments" aria-hidden>
                      <CommentIcon />
                      {openComments.get(s.index)}
                    </span>
                  ) : null}
                </span>
              </button>
              {cut === s.index && (
                <span className="cut-line" title={t("editor.cutHint")} aria-hidden>
                  <ScissorsIcon />
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
