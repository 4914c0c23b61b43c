"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, ErrorBox, QueryBody } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { tokensQuery, useCreateToken, useRevokeToken } from "@/lib/queries/tokens";
import { SecretReveal } from "./copy";
import { TokenTable } from "./token-table";

/** Your own API tokens: create one (shown once), see when each was last used, revoke. */
export function OwnTokens() {
  const t = useT();
  const query = useQuery(tokensQuery("own"));
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  return (
    <section className="panel account-section" aria-labelledby="tokens-title">
      <div className="panel-pad">
        <h2 id="tokens-title">{t("tokens.title")}</h2>
        <p className="hint">{t("tokens.hint")}</p>
        <form
          className="form-row"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(name.trim(), { onSuccess: () => setName("") });
          }}
        >
          <label className="field">
            <span>{t("tokens.newName")}</span>
            <input
              className="input grow"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={60}
              required
              placeholder={t("tokens.namePlaceholder")}
            />
          </label>
          <button className="btn btn-primary" type="submit" disabled={create.isPending || !name.trim()}>
            {t("tokens.create")}
          </button>
        </form>
        {create.error && <ErrorBox error={create.error} />}
        {create.data && (
          <SecretReveal
            label={t("tokens.newToken", { name: create.data.name })}
            value={create.data.token}
            note={t("tokens.shownOnce")}
            onDismiss={() => create.reset()}
          />
        )}
        {revoke.error && <ErrorBox error={revoke.error} />}
      </div>
      <QueryBody
        query={query}
        loading={t("admin.loading")}
        isEmpty={(data) => data.tokens.length === 0}
        empty={
          <EmptyState title={t("tokens.none")}>
            <p>{t("tokens.noneHint")}</p>
          </EmptyState>
        }
      >
        {(data) => (
          <TokenTable
            tokens={data.tokens}
            label={t("tokens.title")}
            onRevoke={(id) => revoke.mutate(id)}
            revokingId={revoke.isPending ? revoke.variables : undefined}
          />
        )}
      </QueryBody>
    </section>
  );
}
