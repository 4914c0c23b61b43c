"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { judgeAgreementQuery, type Confusion } from "@/lib/queries/model";
import { CsvLink } from "./csv-link";

const pct = (n: number, of: number) => (of === 0 ? "—" : `${Math.round((100 * n) / of)}%`);

/** The model judge against people: confusion matrix, Cohen's kappa, per app, and the disagreements to open. */
export function JudgeAgreement() {
  const t = useT();
  const query = useQuery(judgeAgreementQuery());
  if (query.error) return <ErrorBox error={query.error} />;
  if (!query.data) return <Loading />;
  const a = query.data;
  const kappa = (k: number | null) => (k === null ? t("judge.na") : k.toFixed(2));
  return (
    <section className="panel panel-pad" aria-labelledby="judge-title" data-testid="judge-agreement">
      <h2 id="judge-title">{t("judge.title")}</h2>
      <p className="muted">{t("judge.sub")}</p>
      {a.overall.pairs === 0 ? (
        <p className="muted">{t("judge.none")}</p>
      ) : (
        <>
          <dl className="judge-figures">
            <dt>{t("judge.pairs")}</dt>
            <dd data-testid="judge-pairs">{a.overall.pairs}</dd>
            <dt>{t("judge.agree")}</dt>
            <dd>{pct(a.overall.agree, a.overall.pairs)}</dd>
            <dt>{t("judge.kappa")}</dt>
            <dd data-testid="judge-kappa">{kappa(a.overall.kappa)}</dd>
            <dt>{t("judge.unjudged")}</dt>
            <dd>{a.unjudged}</dd>
          </dl>
          <Matrix c={a.overall.confusion} />
          <div className="panel-title-row">
            <h3>{t("judge.byApp")}</h3>
            <CsvLink table="judge-by-app" title={t("judge.byApp")} />
          </div>
          <table className="table" aria-label={t("judge.byApp")}>
            <thead>
              <tr>
                <th>{t("judge.app")}</th>
                <th>{t("judge.pairs")}</th>
                <th>{t("judge.agree")}</th>
                <th>{t("judge.kappa")}</th>
              </tr>
            </thead>
            <tbody>
              {a.byApp.map((g) => (
                <tr key={g.app}>
                  <td data-i18n="data">{g.app}</td>
                  <td>{g.pairs}</td>
                  <td>{pct(g.agree, g.pairs)}</td>
                  <td>{kappa(g.kappa)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="panel-title-row">
            <h3>{t("judge.disagreements")}</h3>
            <CsvLink table="judge-disagreements" title={t("judge.disagreements")} />
          </div>
          {a.disagreements.length === 0 ? (
            <p className="muted">{t("judge.noDisagreements")}</p>
          ) : (
            <table className="table" aria-label={t("judge.disagreements")}>
              <thead>
                <tr>
                  <th>{t("judge.app")}</th>
                  <th>{t("judge.human")}</th>
                  <th>{t("judge.judge")}</th>
                  <th>{t("judge.reason")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {a.disagreements.map((d) => (
                  <tr key={d.trajectoryId}>
                    <td data-i18n="data">{d.app}</td>
                    <td>{t(`judge.${d.human}`)}</td>
                    <td>{t(`judge.${d.judge}`)}</td>
                    <td title={d.instruction} data-i18n="data">
                      {d.reason}
                    </td>
                    <td>
                      <Link href={`/trajectories/${d.trajectoryId}`} aria-label={t("judge.openNamed", { instruction: d.instruction })}>
                        {t("judge.open")}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

function Matrix({ c }: { c: Confusion }) {
  const t = useT();
  return (
    <table className="table judge-matrix" aria-label={t("judge.matrix")}>
      <caption className="muted small">{t("judge.matrix")}</caption>
      <thead>
        <tr>
          <th />
          <th>
            {t("judge.judge")}: {t("judge.success")}
          </th>
          <th>
            {t("judge.judge")}: {t("judge.failure")}
          </th>
        </tr>
      </thead>
      <tbody>
        {(["success", "failure"] as const).map((h) => (
          <tr key={h}>
            <th>
              {t("judge.human")}: {t(`judge.${h}`)}
            </th>
            <td>{c[h].success}</td>
            <td>{c[h].failure}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
