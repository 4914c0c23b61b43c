"use client";

import { ErrorBox } from "@/components/ui/states";
import { useFormat, type useT } from "@/lib/i18n/react";
import type { ModelSettingsView, useSaveModelSettings, useTestModelConnection } from "@/lib/queries/model";

// Parts of the model settings form (model-settings.tsx).

type T = ReturnType<typeof useT>;

/** The key (write-only: its input starts empty) and, when one is saved, "clear the saved key". */
export function KeyFields({
  settings,
  clearKey,
  setClearKey,
  t,
}: {
  settings: ModelSettingsView;
  clearKey: boolean;
  setClearKey: (clear: boolean) => void;
  t: T;
}) {
  const saved = (field: keyof ModelSettingsView["sources"]) => settings.sources[field] === "saved";
  return (
    <>
      <label className="field">
        <span>{t("model.settings.apiKey")}</span>
        <input
          className="input"
          name="apiKey"
          type="password"
          autoComplete="off"
          placeholder={t("model.settings.apiKeyKeep")}
          disabled={clearKey}
        />
        <small className="muted">
          {settings.keyUnreadable
            ? t("model.settings.keyUnreadable")
            : settings.hasKey
              ? t("model.settings.hasKey", { source: t(`model.settings.source.${settings.sources.apiKey}`) })
              : t("model.settings.noKey")}
        </small>
      </label>
      {saved("apiKey") && (
        <label className="field">
          <span>
            <input type="checkbox" checked={clearKey} onChange={(e) => setClearKey(e.target.checked)} /> {t("model.settings.clearKey")}
          </span>
        </label>
      )}
    </>
  );
}

/** What the save and the connection test said: saved, running, an error, or the test's result. */
export function SettingsStatus({
  save,
  test,
  t,
}: {
  save: ReturnType<typeof useSaveModelSettings>;
  test: ReturnType<typeof useTestModelConnection>;
  t: T;
}) {
  const format = useFormat();
  return (
    <>
      {save.error && <ErrorBox error={save.error} />}
      {save.isSuccess && (
        <p className="muted" role="status">
          {t("model.settings.saved")}
        </p>
      )}
      {test.isPending && (
        <p className="muted" role="status">
          {t("model.test.running")}
        </p>
      )}
      {test.error && <ErrorBox error={test.error} />}
      {test.data && (
        <div className={test.data.test.ok ? "test-ok" : "error-box"} role="status" data-testid="model-test">
          <p>
            {test.data.test.ok
              ? t("model.test.ok", { model: test.data.test.model ?? "", duration: format.duration(test.data.test.ms) })
              : t("model.test.failed", { duration: format.duration(test.data.test.ms) })}
          </p>
          {test.data.test.ok ? (
            <pre className="code wrap">{test.data.test.reply}</pre>
          ) : (
            <p>
              {test.data.test.status !== null && <>{t("model.test.status", { status: test.data.test.status })} · </>}
              {t(`model.test.reason.${test.data.test.reason ?? "bad_answer"}`)}
            </p>
          )}
          {test.data.test.usage && (
            <p className="muted small">
              {t("model.test.tokens", { prompt: test.data.test.usage.promptTokens, completion: test.data.test.usage.completionTokens })}
            </p>
          )}
        </div>
      )}
    </>
  );
}
