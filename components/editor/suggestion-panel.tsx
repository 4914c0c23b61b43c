"use client";

import { useSyncExternalStore } from "react";
import type { Editor } from "@/lib/canvas/editor";
import { createStore } from "@/lib/canvas/store";
import { describeToolCall, type StepToolCall } from "@/lib/domain/tool-call";
import type { MessageKey, Translate } from "@/lib/i18n";
import { useT } from "@/lib/i18n/react";
import { ApiError } from "@/lib/queries/fetcher";
import { ErrorDetail } from "@/components/ui/states";
import {
  acceptSuggestionRequest,
  requestSuggestion,
  waitingSuggestionRequest,
  type SuggestionKind,
  type SuggestionView,
} from "@/lib/queries/model";
import type { StepView } from "@/lib/domain/views";
import { useEditorContext } from "./editor-context";
import { useEditor } from "./use-editor";

type State = {
  /** the step the suggestion or request belongs to */
  stepId: string | null;
  pending: SuggestionKind | null;
  suggestion: SuggestionView | null;
  error: { key: MessageKey; detail: string; upstream?: unknown } | null;
};

/**
 * The model's suggestion for the current step, outside the editor's document: asking changes
 * nothing; accepting records it on the server, then writes the values into the step as one ordinary
 * edit (undo takes it back; autosave saves it with its provenance). A failed or slow request only
 * shows a message: the fields and everything typed meanwhile stay as they are.
 */
export function createSuggestions(editor: Editor) {
  const store = createStore<State>({ stepId: null, pending: null, suggestion: null, error: null });
  const currentStepId = () => editor.get().steps[editor.get().stepIndex]!.id;

  async function ask(kind: SuggestionKind) {
    const stepId = currentStepId();
    store.set({ stepId, pending: kind, suggestion: null, error: null });
    try {
      const suggestion = await requestSuggestion(stepId, kind);
      if (store.get().stepId === stepId) store.set({ pending: null, suggestion });
    } catch (e) {
      if (store.get().stepId === stepId) store.set({ pending: null, error: errorMessage(e) });
    }
  }

  async function accept() {
    const s = store.get().suggestion;
    // An evaluation run's failed prediction is evidence of a wrong answer: nothing takes it over, the key included.
    if (!s || s.failedPrediction || s.stepId !== currentStepId() || editor.get().isReadOnly) return;
    try {
      await acceptSuggestionRequest(s.id);
    } catch (e) {
      store.set({ error: errorMessage(e) });
      return;
    }
    if (s.stepId !== currentStepId()) return;
    if (s.kind === "thought") editor.patchStep("history.suggestion", { thought: s.output });
    else
      editor.patchStep("history.suggestion", {
        toolCall: s.output.toolCall,
        ...(s.output.clearAction ? { clearAction: s.output.clearAction } : {}),
      });
    store.set({ suggestion: null, error: null });
  }

  const dismiss = () => store.set({ suggestion: null, error: null });

  // A job may have left a suggestion on a step: a pre-annotation is offered, drawn and accepted like one the person
  // asked for; an evaluation run's failing answer (sent to annotation) is shown and drawn as the model's failed
  // prediction, which cannot be accepted. Each step is asked about once per page visit, and what waits is shown only
  // while nothing else is shown for that step.
  const looked = new Set<string>();
  async function offerWaiting() {
    const s = editor.get();
    const stepId = s.steps[s.stepIndex]?.id;
    if (!stepId || s.isReadOnly || looked.has(stepId)) return;
    looked.add(stepId);
    let waiting: SuggestionView | null;
    try {
      waiting = await waitingSuggestionRequest(stepId);
    } catch {
      return; // nothing to offer: the person can still ask for one
    }
    const now = store.get();
    const isIdle = now.stepId !== stepId || (!now.pending && !now.suggestion);
    if (waiting && currentStepId() === stepId && isIdle) store.set({ stepId, pending: null, suggestion: waiting, error: null });
  }
  /** Offer what waits on each step the person opens, from now until the returned function is called. */
  function watch(): () => void {
    let lastIndex = editor.get().stepIndex;
    void offerWaiting();
    return editor.subscribe(() => {
      const i = editor.get().stepIndex;
      if (i === lastIndex) return;
      lastIndex = i;
      void offerWaiting();
    });
  }

  return { ...store, ask, accept, dismiss, watch };
}
export type Suggestions = ReturnType<typeof createSuggestions>;

/**
 * The action shown on this step's canvas: a suggestion waiting to be accepted, or an evaluation run's failed
 * prediction (never both; none for a thought, another step's, or nothing asked).
 */
export function useSuggestedAction(
  suggestions: Suggestions,
  stepId: string,
): { suggested: StepToolCall | null; failedPrediction: StepToolCall | null } {
  const state = useSyncExternalStore(suggestions.subscribe, suggestions.get, suggestions.get);
  const s = state.stepId === stepId ? state.suggestion : null;
  const call = s && s.kind === "action" && s.stepId === stepId ? s.output.toolCall : null;
  return s?.failedPrediction ? { suggested: null, failedPrediction: call } : { suggested: call, failedPrediction: null };
}

function errorMessage(e: unknown): State["error"] {
  if (e instanceof ApiError) {
    if (e.code === "gateway_timeout") return { key: "suggest.timeout", detail: "" };
    if (e.code === "unavailable") return { key: "suggest.notConfigured", detail: "" };
    return { key: "suggest.failed", detail: e.message, upstream: e };
  }
  return { key: "suggest.offline", detail: "" };
}

const PROVENANCE_ROWS = [
  ["thought.text", "editor.thought"],
  ["clearAction", "editor.clearAction"],
  ["toolCall", "editor.toolCall"],
] as const;

export function SuggestionPanel({ suggestions, step }: { suggestions: Suggestions; step: StepView }) {
  const t = useT();
  const { editor } = useEditorContext();
  const state = useSyncExternalStore(suggestions.subscribe, suggestions.get, suggestions.get);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  const isHere = state.stepId === step.id;
  const suggestion = isHere ? state.suggestion : null;
  return (
    <section className="suggestion-panel" aria-label={t("suggest.title")}>
      <div className="suggestion-actions">
        <button
          type="button"
          className="btn btn-small"
          disabled={isReadOnly || state.pending !== null}
          onClick={() => void suggestions.ask("thought")}
        >
          {t("suggest.thought")}
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={isReadOnly || state.pending !== null}
          onClick={() => void suggestions.ask("action")}
        >
          {t("suggest.action")}
        </button>
        {isHere && state.pending && (
          <span className="muted small" role="status">
            {t("suggest.asking")}
          </span>
        )}
      </div>
      {isHere && state.error && (
        <p className="problem is-blocking" role="alert">
          {t(state.error.key, { detail: state.error.detail })}
          <ErrorDetail error={state.error.upstream} />
        </p>
      )}
      {suggestion && (
        <SuggestionCard suggestion={suggestion} t={t} onAccept={() => void suggestions.accept()} onDismiss={suggestions.dismiss} />
      )}
      <p className="muted small provenance" title={t("provenance.label")}>
        {PROVENANCE_ROWS.map(([field, label]) => (
          <span key={field} data-testid={`provenance-${field}`}>
            {t(label)}: {t(`provenance.${step.provenance[field]?.source ?? "imported"}` as MessageKey)}{" "}
          </span>
        ))}
      </p>
    </section>
  );
}

function SuggestionCard({
  suggestion,
  t,
  onAccept,
  onDismiss,
}: {
  suggestion: SuggestionView;
  t: Translate;
  onAccept: () => void;
  onDismiss: () => void;
}) {
  const failed = suggestion.failedPrediction;
  return (
    <div className={`suggestion-card${failed ? " is-failed-prediction" : ""}`} data-testid="suggestion">
      {failed ? (
        <>
          <p className="small failed-prediction-label">
            <strong>
              {t("suggest.failedPrediction", {
                run: t("eval.runs.line", { endpoint: failed.endpoint, set: failed.set, version: failed.version, rule: failed.rule }),
              })}
            </strong>
          </p>
          <p className="muted small">{t("suggest.failedPredictionHint")}</p>
        </>
      ) : (
        <p className="muted small">{t("suggest.from", { model: suggestion.model, prompt: suggestion.prompt })}</p>
      )}
      <dl>
        {suggestion.kind === "thought" ? (
          <>
            <dt>{t("suggest.state")}</dt>
            <dd>{suggestion.output.state}</dd>
            <dt>{t("suggest.nextAction")}</dt>
            <dd>{suggestion.output.nextAction}</dd>
            <dt>{t("suggest.purpose")}</dt>
            <dd>{suggestion.output.purpose}</dd>
          </>
        ) : (
          <>
            <dt>{t("suggest.clearAction")}</dt>
            <dd>{suggestion.output.clearAction || "—"}</dd>
            <dt>{t("suggest.toolCall")}</dt>
            <dd>
              {/* Whole pixels, as the canvas legend says it: the converted point's decimals tell a person nothing. */}
              <code>{describeToolCall(suggestion.output.toolCall)}</code>
            </dd>
          </>
        )}
      </dl>
      <div className="suggestion-actions">
        {!failed && (
          <button type="button" className="btn btn-small btn-primary" onClick={onAccept}>
            {t("suggest.accept")} <span className="kbd">A</span>
          </button>
        )}
        <button type="button" className="btn btn-small btn-ghost" onClick={onDismiss}>
          {t(failed ? "suggest.hide" : "suggest.dismiss")}
        </button>
      </div>
    </div>
  );
}
