import { Badge } from "@/components/ui/badge";
import { formatMobileUseCall, type ToolCall } from "@/lib/domain/tool-call";
import type { StepView } from "@/lib/queries/trajectories";

/** Indented JSON with number arrays (points, boxes) kept on one line. */
const pretty = (call: ToolCall) =>
  JSON.stringify({ name: "mobile_use", arguments: call }, null, 2).replace(/\[\s+([-\d.,\s]+?)\s+\]/g, (_m, inner: string) => `[${inner.split(/,\s*/).join(", ")}]`);

export function StepPanel({ step, stepCount }: { step: StepView; stepCount: number }) {
  const original = step.original;
  const isToolCallChanged = JSON.stringify(original.toolCall) !== JSON.stringify(step.toolCall);
  return (
    <aside className="step-panel" aria-label="Step details">
      <div className="panel-section panel-title">
        <h2>
          Step {step.index + 1} of {stepCount}
        </h2>
        <span className="meta-item">
          verdict <Badge value={step.verdict} />
        </span>
      </div>

      <section className="panel-section" aria-label="Clear action">
        <h3>Clear action</h3>
        <p className="clear-action">{step.clearAction || <span className="muted">No clear action yet</span>}</p>
      </section>

      <section className="panel-section" aria-label="Thought">
        <h3>Thought</h3>
        <dl className="thought">
          <dt>State</dt>
          <dd>{step.thought.state || <span className="muted">—</span>}</dd>
          <dt>Next action</dt>
          <dd>{step.thought.nextAction || <span className="muted">—</span>}</dd>
          <dt>Purpose</dt>
          <dd>{step.thought.purpose || <span className="muted">—</span>}</dd>
        </dl>
        {step.thought.text && <p className="composed">{step.thought.text}</p>}
      </section>

      <section className="panel-section" aria-label="Tool call">
        <h3>Tool call {isToolCallChanged && <span className="badge badge-corrected">edited</span>}</h3>
        <pre className="code">{pretty(step.toolCall)}</pre>
        {(step.box || step.candidateBoxes.length > 0) && (
          <p className="muted small">
            {step.box && <>target box [{step.box.map((n) => Math.round(n)).join(", ")}] · </>}
            {step.candidateBoxes.length} candidate box{step.candidateBoxes.length === 1 ? "" : "es"} · original pixels
          </p>
        )}
      </section>

      <section className="panel-section" aria-label="Model output">
        <h3>Model output (as imported)</h3>
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
            <summary className="muted small">Raw action from the file</summary>
            <pre className="code wrap">{JSON.stringify(original.rawAction, null, 2)}</pre>
          </details>
        )}
      </section>
    </aside>
  );
}
