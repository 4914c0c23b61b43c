import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/states";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Not allowed" };

export default async function ForbiddenPage() {
  const actor = await pageActor("/forbidden");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page" role="alert">
      <EmptyState title={t("forbidden.title")}>
        <p>{t("forbidden.body", { role: t(`role.${actor.role}`) })}</p>
        <Link href="/trajectories">{t("forbidden.back")}</Link>
      </EmptyState>
    </main>
  );
}
