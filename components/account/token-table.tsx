"use client";

import type { Token } from "@/lib/domain/tokens";
import { useFormat, useT } from "@/lib/i18n/react";
import { ConfirmButton } from "./copy";

type Props = { tokens: Token[]; showOwner?: boolean; label: string; onRevoke: (id: string) => void; revokingId?: string };

/** API tokens: name, whose, prefix, when created and last used, and whether they still work. */
export function TokenTable({ tokens, showOwner = false, label, onRevoke, revokingId }: Props) {
  const t = useT();
  const formatDate = useFormat().dateTime;
  return (
    <table className="table" aria-label={label}>
      <thead>
        <tr>
          <th>{t("tokens.name")}</th>
          {showOwner && <th>{t("tokens.owner")}</th>}
          <th>{t("tokens.prefix")}</th>
          <th>{t("tokens.created")}</th>
          <th>{t("tokens.lastUsed")}</th>
          <th>{t("tokens.status")}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {tokens.map((tok) => (
          <tr key={tok.id}>
            <td data-i18n="data">{tok.name}</td>
            {showOwner && (
              <td className="nowrap" data-i18n="data">
                {tok.userEmail}
              </td>
            )}
            <td className="nowrap">
              <code>{tok.prefix}…</code>
            </td>
            <td className="nowrap muted">{formatDate(tok.createdAt)}</td>
            <td className="nowrap muted">{tok.lastUsedAt ? formatDate(tok.lastUsedAt) : t("tokens.never")}</td>
            <td className="nowrap">
              {tok.revokedAt ? (
                <span className="badge badge-rejected">{t("tokens.revoked")}</span>
              ) : (
                <span className="badge badge-approved">{t("tokens.active")}</span>
              )}
            </td>
            <td className="nowrap actions">
              {!tok.revokedAt && (
                <ConfirmButton
                  label={t("tokens.revoke")}
                  confirmLabel={t("tokens.confirmRevoke")}
                  disabled={revokingId === tok.id}
                  onConfirm={() => onRevoke(tok.id)}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
