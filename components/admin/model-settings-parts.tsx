"use client";

import { ErrorBox } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import type { ConnectionTest } from "@/lib/domain/model";
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
      {test.data && <ConnectionTestResult test={test.data.test} />}
    </>
  );
}

/** What one "Test connection" request saw, in words: who answered and how fast (with the reply), or why it failed. */
export function ConnectionTestResult({ test }: { test: ConnectionTest }) {
  const t = useT();
  const format = useFormat();
  return (
    <div className={test.ok ? "test-ok" : "error-box"} role="status" data-testid="model-test">
      <p>
        {test.ok
          ? t("model.test.ok", { model: test.model ?? "", duration: format.duration(test.ms) })
          : t("model.test.failed", { duration: format.duration(test.ms) })}
      </p>
      {test.ok ? (
        <pre className="code wrap">{test.reply}</pre>
      ) : (
        <p>
          {test.status !== null && <>{t("model.test.status", { status: test.status })} · </>}
          {t(`model.test.reason.${test.reason ?? "bad_answer"}`)}
        </p>
      )}
      {test.usage && (
        <p className="muted small">
          {t("model.test.tokens", { prompt: test.usage.promptTokens, completion: test.usage.completionTokens })}
        </p>
      )}
    </div>
  );
}
