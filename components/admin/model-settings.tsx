"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { modelSettingsQuery, useSaveModelSettings, useTestModelConnection, type ModelSettingsView } from "@/lib/queries/model";
import { KeyFields, SettingsStatus } from "./model-settings-parts";

/** The model endpoint: base URL, model, key (write-only), concurrency, timeout; and "test connection". */
export function ModelSettings() {
  const t = useT();
  const query = useQuery(modelSettingsQuery());
  // Held here, not in the form: a save re-keys the form (fresh defaults) and "Saved." must outlive that.
  const save = useSaveModelSettings();
  const test = useTestModelConnection();
  if (query.error) return <ErrorBox error={query.error} />;
  if (!query.data) return <Loading />;
  return <SettingsForm key={JSON.stringify(query.data.settings)} settings={query.data.settings} save={save} test={test} t={t} />;
}

function SettingsForm({
  settings,
  save,
  test,
  t,
}: {
  settings: ModelSettingsView;
  save: ReturnType<typeof useSaveModelSettings>;
  test: ReturnType<typeof useTestModelConnection>;
  t: ReturnType<typeof useT>;
}) {
  const [clearKey, setClearKey] = useState(false);
  const saved = (field: keyof ModelSettingsView["sources"]) => settings.sources[field] === "saved";
  const source = (field: keyof ModelSettingsView["sources"], value: string | number | null) =>
    t("model.settings.source", {
      value: value === null ? "—" : String(value),
      source: t(`model.settings.source.${settings.sources[field]}`),
    });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    const num = (k: string, scale = 1) => (text(k) === "" ? null : Math.round(Number(text(k)) * scale));
    const key = text("apiKey");
    save.mutate({
      baseUrl: text("baseUrl"),
      model: text("model"),
      ...(clearKey ? { apiKey: "" } : key ? { apiKey: key } : {}),
      concurrency: num("concurrency"),
      timeoutMs: num("timeout", 1000),
    });
  }

  return (
    <section className="panel panel-pad admin-section" aria-labelledby="model-settings-title">
      <h2 id="model-settings-title">{t("model.settings.title")}</h2>
      {!settings.isConfigured && <p className="muted">{t("model.settings.notConfigured")}</p>}
      <form className="form-row" onSubmit={submit}>
        <label className="field">
          <span>{t("model.settings.baseUrl")}</span>
          <input
            className="input"
            name="baseUrl"
            defaultValue={saved("baseUrl") ? (settings.baseUrl ?? "") : ""}
            placeholder={t("model.settings.baseUrlHint")}
          />
          <small className="muted">{source("baseUrl", settings.baseUrl)}</small>
          {settings.hasKey && <small className="muted">{t("model.settings.urlClearsKey")}</small>}
        </label>
        <label className="field">
          <span>{t("model.settings.model")}</span>
          <input
            className="input"
            name="model"
            defaultValue={saved("model") ? (settings.model ?? "") : ""}
            placeholder="Qwen/Qwen2.5-VL-7B-Instruct"
          />
          <small className="muted">{source("model", settings.model)}</small>
        </label>
        <KeyFields settings={settings} clearKey={clearKey} setClearKey={setClearKey} t={t} />
        <label className="field">
          <span>{t("model.settings.concurrency")}</span>
          <input
            className="input"
            name="concurrency"
            type="number"
            min={1}
            max={32}
            defaultValue={saved("concurrency") ? settings.concurrency : ""}
            placeholder={t("model.settings.fromEnv")}
          />
          <small className="muted">{source("concurrency", settings.concurrency)}</small>
        </label>
        <label className="field">
          <span>{t("model.settings.timeout")}</span>
          <input
            className="input"
            name="timeout"
            type="number"
            min={1}
            max={600}
            defaultValue={saved("timeoutMs") ? settings.timeoutMs / 1000 : ""}
            placeholder={t("model.settings.fromEnv")}
          />
          <small className="muted">{source("timeoutMs", settings.timeoutMs / 1000)}</small>
        </label>
        <button className="btn btn-primary" type="submit" disabled={save.isPending}>
          {t("model.settings.save")}
        </button>
        <button className="btn" type="button" disabled={test.isPending || !settings.isConfigured} onClick={() => test.mutate()}>
          {t("model.test.button")}
        </button>
      </form>
      <SettingsStatus save={save} test={test} t={t} />
    </section>
  );
}
