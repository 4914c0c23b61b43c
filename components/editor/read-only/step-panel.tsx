import { Badge } from "@/components/ui/badge";
import { formatMobileUseCall, formatMobileUseCallPretty } from "@/lib/domain/tool-call";
import type { StepView } from "@/lib/domain/views";
import { useFormat, useT } from "@/lib/i18n/react";

const pretty = formatMobileUseCallPretty;

export function StepPanel({ step, stepCount }: { step: StepView; stepCount: number }) {
  const t = useT();
  const nf = useFormat().number;
  const original = step.original;
  const isToolCallChanged = JSON.stringify(original.toolCall) !== JSON.stringify(step.toolCall);
  return (
    <aside className="step-panel" aria-label={t("viewer.details")}>
      <div className="panel-section panel-title">
        <h2>{t("viewer.stepOfLong", { n: step.index + 1, count: stepCount })}</h2>
        <span className="meta-item">
          {t("viewer.verdict")} <Badge value={step.verdict} />
        </span>
      </div>

      <section className="panel-section" aria-label={t("viewer.clearAction")}>
        <h3>{t("viewer.clearAction")}</h3>
        <p className="clear-action" data-i18n={step.clearAction ? "data" : undefined}>
          {step.clearAction || <span className="muted">{t("viewer.noClearAction")}</span>}
        </p>
      </section>

      <section className="panel-section" aria-label={t("viewer.thought")}>
        <h3>{t("viewer.thought")}</h3>
        <dl className="thought">
          <dt>{t("viewer.thought.state")}</dt>
          <dd data-i18n="data">{step.thought.state || <span className="muted">—</span>}</dd>
          <dt>{t("viewer.thought.nextAction")}</dt>
          <dd data-i18n="data">{step.thought.nextAction || <span className="muted">—</span>}</dd>
          <dt>{t("viewer.thought.purpose")}</dt>
          <dd data-i18n="data">{step.thought.purpose || <span className="muted">—</span>}</dd>
        </dl>
        {step.thought.text && (
          <p className="composed" data-i18n="data">
            {step.thought.text}
          </p>
        )}
      </section>

      <section className="panel-section" aria-label={t("viewer.toolCall")}>
        <h3>
          {t("viewer.toolCall")} {isToolCallChanged && <span className="badge badge-corrected">{t("viewer.edited")}</span>}
        </h3>
        <pre className="code">{pretty(step.toolCall)}</pre>
        {(step.box || step.candidateBoxes.length > 0) && (
          <p className="muted small">
            {step.box && <>{t("viewer.targetBox", { box: step.box.map((n) => Math.round(n)).join(", ") })} · </>}
            {t("viewer.candidates", {
              n: nf(step.candidateBoxes.length),
            })}{" "}
            · {t("viewer.originalPixels")}
          </p>
        )}
      </section>

      <section className="panel-section" aria-label={t("viewer.modelOutput")}>
        <h3>{t("viewer.modelOutputTitle")}</h3>
        {original.response ? (
          <pre className="code wrap">{original.response}</pre>
        ) : (
          <>
            {original.thought && <p className="small">{original.thought}</p>}
            {original.clearAction && <p className="small">{original.clearAction}</p>}
            <pre className="code wrap">{formatMobileUseCall(original.toolCall)}</pre>
          </>
        )}
        {original.rawAction !== undefined && (
          <details>
            <summary className="muted small">{t("viewer.rawAction")}</summary>
            <pre className="code wrap">{JSON.stringify(original.rawAction, null, 2)}</pre>
          </details>
        )}
      </section>
    </aside>
  );
}
