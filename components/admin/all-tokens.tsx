"use client";

import { useQuery } from "@tanstack/react-query";
import { TokenTable } from "@/components/account/token-table";
import { EmptyState, ErrorBox, QueryBody } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { tokensQuery, useRevokeToken } from "@/lib/queries/tokens";

/** Every person's API tokens, for admins to see what automation has access and revoke it. */
export function AllTokens() {
  const t = useT();
  const query = useQuery(tokensQuery("all"));
  const revoke = useRevokeToken();
  return (
    <section className="panel admin-section" aria-labelledby="all-tokens-title">
      <div className="panel-pad">
        <h2 id="all-tokens-title">{t("tokens.allTitle")}</h2>
        <p className="hint">{t("tokens.allHint")}</p>
        {revoke.error && <ErrorBox error={revoke.error} />}
      </div>
      <QueryBody
        query={query}
        loading={t("admin.loading")}
        isEmpty={(data) => data.tokens.length === 0}
        empty={<EmptyState title={t("tokens.noneAll")} />}
      >
        {(data) => (
          <TokenTable
            tokens={data.tokens}
            showOwner
            label={t("tokens.allTitle")}
            onRevoke={(id) => revoke.mutate(id)}
            revokingId={revoke.isPending ? revoke.variables : undefined}
          />
        )}
      </QueryBody>
    </section>
  );
}
