"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLayoutEffect, useMemo, useState } from "react";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { StepCanvas, type ZoomHints } from "@/components/step-canvas/step-canvas";
import { ErrorBox, Loading } from "@/components/ui/states";
import { adjudicationShortcuts, type AdjudicationContextState } from "@/lib/canvas/review-shortcuts";
import { createView, type View } from "@/lib/canvas/view";
import { viewShortcuts, zoomHints } from "@/lib/canvas/view-shortcuts";
import {
  adjudicationBody,
  disagreementsOf,
  handedInCopies,
  unchosen,
  type AdjudicatedField,
  type AdjudicationChoice,
  type AdjudicationView,
  type Alternative,
  type Disagreement,
} from "@/lib/domain/adjudication";
import type { Box } from "@/lib/domain/geometry";
import type { StepView } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";
import { adjudicate, adjudicationQuery } from "@/lib/queries/adjudication";
import { AgreedLine, CopiesLegend, DisagreementBlock, copyMarksOf, stepOf } from "./adjudication-parts";
import "./adjudication.css";

/**
 * Adjudication (issue 26 item 3, reworked for issue 36): only where the handed-in copies of an
 * overlapped trajectory disagree, step by step, each disagreement marked with its field and how the
 * copies differ; the fields they agree on are one collapsed line per step and taken as they are. The
 * current disagreement's step is on the step canvas with every copy's action in its colour. Nothing is
 * pre-chosen: the reviewer picks a copy per disagreement (keys 1 to 3, J/K to move), and approving
 * waits until every disagreement has a choice.
 */
export function Adjudication({ id }: { id: string }) {
  const q = useQuery(adjudicationQuery(id));
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <AdjudicationForm view={q.data} />;
}

function AdjudicationForm({ view: data }: { view: AdjudicationView }) {
  const t = useT();
  const client = useQueryClient();
  const copies = useMemo(() => handedInCopies(data.copies), [data.copies]);
  const steps = data.trajectory.steps;
  const { disagreements, agreed } = useMemo(() => disagreementsOf(copies, steps.length), [copies, steps.length]);
  const [choices, setChoices] = useState<Record<string, AdjudicationChoice | undefined>>({});
  const [edits, setEdits] = useState<Record<string, string | undefined>>({});
  const [current, setCurrent] = useState(0);
  const [shownStep, setShownStep] = useState(() => disagreements[0]?.stepIndex ?? 0);
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [canvasView] = useState(() => createView());
  // The copies' own marks say it all: of the canvas's layers only the model's action stays, as a reference.
  useLayoutEffect(() => {
    for (const layer of ["corrected", "importedBox", "correctedBox"] as const) canvasView.setLayer(layer, false);
  }, [canvasView]);

  const left = unchosen(disagreements, choices).length;
  const approve = useMutation({
    mutationFn: () =>
      adjudicate(
        data.trajectory.id,
        adjudicationBody({ version: data.trajectory.version, stepCount: steps.length, copies, choices, edits }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: adjudicationQuery(data.trajectory.id).queryKey }),
  });
  const canSave = copies.length >= 2 && left === 0 && !approve.isPending && !approve.isSuccess;

  const goTo = (i: number) => {
    const n = Math.min(Math.max(i, 0), disagreements.length - 1);
    const d = disagreements[n];
    if (!d) return;
    setCurrent(n);
    if (d.stepIndex !== null) setShownStep(d.stepIndex);
    document.getElementById(`disagreement-${d.key}`)?.scrollIntoView({ block: "nearest" });
  };
  const choose = (n: number, c: AdjudicationChoice) => {
    const d = disagreements[n];
    if (!d) return;
    setChoices((all) => ({ ...all, [d.key]: c }));
    if (c === "edited" && edits[d.key] === undefined) {
      const s = d.stepIndex === null ? undefined : stepOf(copies[0]!, d.stepIndex);
      const text = d.field === "thought" ? s?.thought.text : d.field === "clearAction" ? s?.clearAction : undefined;
      setEdits((all) => ({ ...all, [d.key]: text ?? "" }));
    }
  };
  const currentD = disagreements[current];
  const shortcuts = useMemo(
    () =>
      adjudicationShortcuts(
        {
          next: () => goTo(current + 1),
          prev: () => goTo(current - 1),
          // Choosing by key moves on to the next disagreement, so a run of choices is a run of keys.
          choose: (k) => {
            choose(current, k);
            if (current < disagreements.length - 1) goTo(current + 1);
          },
          edit: () => {
            choose(current, "edited");
            requestAnimationFrame(() =>
              document.querySelector<HTMLTextAreaElement>(`#disagreement-${CSS.escape(currentD?.key ?? "")} textarea`)?.focus(),
            );
          },
          save: () => approve.mutate(),
          help: () => setHelpOpen((v) => !v),
        },
        viewShortcuts<AdjudicationContextState>(canvasView),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt with the state the actions read
    [current, disagreements, edits, choices, canvasView],
  );
  useShortcuts<AdjudicationContextState>(
    shortcuts,
    () => ({
      copyCount: copies.length,
      canEdit: currentD?.field === "thought" || currentD?.field === "clearAction",
      canSave,
    }),
    !isHelpOpen,
  );

  if (copies.length < 2) return <p className="sub">{t("review.adjudicate.tooFew", { n: copies.length })}</p>;
  const shown = steps[shownStep] ?? steps[0]!;
  const stepsWithDisagreements = new Set(disagreements.map((d) => d.stepIndex).filter((i) => i !== null)).size;
  return (
    <div className="adjudication" data-testid="adjudication">
      <div className="page-head">
        <h1>{t("review.adjudicate.title")}</h1>
        <span className="sub" data-i18n="data">
          {data.trajectory.instruction}
        </span>
      </div>
      <div className="adjudication-layout">
        <div className="adjudication-list">
          <SaveBar
            summary={
              disagreements.length === 0
                ? t("review.adjudicate.noDisagreements")
                : t("review.adjudicate.summary", { n: disagreements.length, steps: stepsWithDisagreements })
            }
            left={left}
            canSave={canSave}
            approve={approve}
          />
          <StepList
            steps={steps}
            copies={copies}
            disagreements={disagreements}
            agreed={agreed}
            choices={choices}
            edits={edits}
            current={current}
            shownStep={shownStep}
            onChoose={choose}
            onEdit={(key, text) => setEdits((all) => ({ ...all, [key]: text }))}
            onCurrent={(n) => {
              setCurrent(n);
              const i = disagreements[n]?.stepIndex;
              if (i !== undefined && i !== null) setShownStep(i);
            }}
            onShowStep={setShownStep}
          />
        </div>
        <CopiesCanvas view={canvasView} step={shown} copies={copies} hints={zoomHints(shortcuts)} />
      </div>
      {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

/** Every step: its disagreements (each with a choice per copy) and one collapsed line for the fields that agree; then the outcome. */
function StepList({
  steps,
  copies,
  disagreements,
  agreed,
  choices,
  edits,
  current,
  shownStep,
  onChoose,
  onEdit,
  onCurrent,
  onShowStep,
}: {
  steps: AdjudicationView["trajectory"]["steps"];
  copies: Alternative[];
  disagreements: Disagreement[];
  agreed: AdjudicatedField[][];
  choices: Record<string, AdjudicationChoice | undefined>;
  edits: Record<string, string | undefined>;
  current: number;
  shownStep: number;
  onChoose: (n: number, c: AdjudicationChoice) => void;
  onEdit: (key: string, text: string) => void;
  onCurrent: (n: number) => void;
  onShowStep: (i: number) => void;
}) {
  const t = useT();
  const outcome = disagreements.findIndex((d) => d.field === "outcome");
  const block = (n: number) => {
    const d = disagreements[n]!;
    return (
      <DisagreementBlock
        key={d.key}
        d={d}
        copies={copies}
        choice={choices[d.key]}
        edit={edits[d.key]}
        isCurrent={n === current}
        onChoose={(c) => onChoose(n, c)}
        onEdit={(text) => onEdit(d.key, text)}
        onFocus={() => onCurrent(n)}
      />
    );
  };
  return (
    <>
      {steps.map((step, i) => {
        const mine = disagreements.flatMap((d, n) => (d.stepIndex === i ? [n] : []));
        const first = stepOf(copies[0]!, i);
        const shown = i === shownStep ? " is-shown" : "";
        if (mine.length === 0)
          return (
            <section
              key={step.id}
              className={`panel adjudication-step is-agreed${shown}`}
              aria-label={t("review.adjudicate.step", { n: i + 1 })}
              data-step={i + 1}
              onClick={() => onShowStep(i)}
            >
              <AgreedLine fields={agreed[i] ?? []} step={first} stepIndex={i} isWholeStep />
            </section>
          );
        return (
          <section
            key={step.id}
            className={`panel adjudication-step${shown}`}
            aria-label={t("review.adjudicate.step", { n: i + 1 })}
            data-step={i + 1}
          >
            <h2>{t("review.adjudicate.step", { n: i + 1 })}</h2>
            {mine.map(block)}
            <AgreedLine fields={agreed[i] ?? []} step={first} stepIndex={i} isWholeStep={false} />
          </section>
        );
      })}
      {outcome >= 0 && (
        <section className="panel adjudication-step" aria-label={t("review.adjudicate.outcome")}>
          <h2>{t("review.adjudicate.outcome")}</h2>
          {block(outcome)}
        </section>
      )}
    </>
  );
}

/** The sticky bar: what there is to choose, how many are left, and Approve (disabled until every disagreement has a choice). */
function SaveBar({
  summary,
  left,
  canSave,
  approve,
}: {
  summary: string;
  left: number;
  canSave: boolean;
  approve: { mutate: () => void; isSuccess: boolean; isError: boolean; error: Error | null };
}) {
  const t = useT();
  return (
    <section className="panel panel-pad adjudication-bar" aria-label={t("review.adjudicate.approve")}>
      <p className="adjudication-summary">{summary}</p>
      <p className="sub adjudication-hint">{t("review.adjudicate.hint")}</p>
      <div className="button-row">
        <span role="status" className={left > 0 ? "adjudication-left" : "adjudication-left is-done"}>
          {approve.isSuccess
            ? t("review.adjudicate.done")
            : left > 0
              ? t("review.adjudicate.left", { n: left })
              : t("review.adjudicate.allChosen")}
        </span>
        <button type="button" className="btn btn-primary" onClick={() => approve.mutate()} disabled={!canSave}>
          {t("review.adjudicate.approve")}
        </button>
      </div>
      {approve.isError && approve.error ? <ErrorBox error={approve.error} /> : null}
    </section>
  );
}

/** The step canvas with every copy's action on `step` in its colour, and a legend naming the copies. */
function CopiesCanvas({ view, step, copies, hints }: { view: View; step: StepView; copies: Alternative[]; hints: ZoomHints }) {
  const t = useT();
  const title = t("review.adjudicate.canvasOf", { n: step.index + 1 });
  return (
    <div className="adjudication-canvas" aria-label={title} role="region">
      <h2 className="adjudication-canvas-title">{title}</h2>
      <StepCanvas
        view={view}
        stepKey={step.id}
        screenshot={step.screenshot}
        model={step.original.toolCall}
        corrected={step.original.toolCall}
        importedBoxes={NO_BOXES}
        correctedBox={null}
        copyMarks={copyMarksOf(copies, step.index)}
        legend={<CopiesLegend copies={copies} stepIndex={step.index} view={view} />}
        hints={hints}
        layout="below"
        isWheelZoomWithModifier
      />
    </div>
  );
}

const NO_BOXES: Box[] = [];
