"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { SubmitProblem } from "@/lib/domain/annotation";
import { localize } from "@/lib/i18n";
import { submitProblemRef } from "@/lib/i18n/problems";
import { useT } from "@/lib/i18n/react";
import { useStartNextTask } from "@/lib/queries/tasks";
import { ErrorBox } from "@/components/ui/states";

/** How many blocking problems the panel lists before "… and n more". */
const SHOWN = 6;

/** What keeps the trajectory from being submitted, in words, each step a link to it. */
export function SubmitBlocked({
  problems,
  onPickStep,
  onClose,
}: {
  problems: SubmitProblem[];
  onPickStep: (index: number) => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <section className="submit-blocked" role="alert" aria-label={t("submit.blockedTitle")}>
      <strong>{t("submit.blockedTitle")}</strong>
      <ul>
        {problems.slice(0, SHOWN).map((p) => (
          <li key={p.code === "outcome.unset" ? p.code : `${p.code}.${p.stepIndex}`}>
            {p.code === "step.incomplete" ? (
              <button type="button" className="link-btn" onClick={() => onPickStep(p.stepIndex)}>
                {localize(submitProblemRef(p), t)}
              </button>
            ) : (
              localize(submitProblemRef(p), t)
            )}
          </li>
        ))}
        {problems.length > SHOWN && <li>{t("submit.moreProblems", { n: problems.length - SHOWN })}</li>}
      </ul>
      <button type="button" className="btn btn-ghost btn-small" onClick={onClose} aria-label={t("editor.close")}>
        ✕
      </button>
    </section>
  );
}

/** After a submit: the confirmation, and the way on to the next task. */
export function Submitted() {
  const t = useT();
  const router = useRouter();
  const start = useStartNextTask();
  const startNext = async () => {
    const id = await start.mutateAsync().catch(() => undefined);
    if (id) router.push(`/trajectories/${id}`);
  };
  return (
    <section className="submit-done" role="status" aria-label={t("submit.done")}>
      <div>
        <strong>{t("submit.done")}</strong> <span className="muted">{t("submit.doneHint")}</span>
      </div>
      <div className="submit-done-actions">
        {start.data === null ? (
          <span>{t("tasks.nothing")}</span>
        ) : (
          <button type="button" className="btn btn-primary" onClick={startNext} disabled={start.isPending} autoFocus>
            {start.isPending ? t("tasks.starting") : t("tasks.startNext")}
          </button>
        )}
        <Link href="/tasks" className="btn">
          {t("submit.backToTasks")}
        </Link>
      </div>
      {start.error && <ErrorBox error={start.error} />}
    </section>
  );
}
