import type { Metadata } from "next";
import { AuditBrowser } from "@/components/admin/audit-browser";
import { isLocale, translator } from "@/lib/i18n";
import { auditFiltersToSearch, parseAuditFilters } from "@/lib/queries/audit";
import { optionalActor, pageActor } from "@/lib/server/pages";
import "../admin.css";

/** The tab's title in the person's language (issue 36: the Chinese page's title was English). */
export async function generateMetadata(): Promise<Metadata> {
  const actor = await optionalActor();
  return { title: translator(isLocale(actor?.locale) ? actor.locale : "en")("audit.title") };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await pageActor("/admin/audit", "audit.read");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  const filters = parseAuditFilters(await searchParams);
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("audit.title")}</h1>
        <span className="sub">{t("audit.sub")}</span>
      </div>
      {/* Keyed by the filters, so the form shows what the URL says after every navigation. */}
      <AuditBrowser key={auditFiltersToSearch(filters)} filters={filters} />
    </main>
  );
}
