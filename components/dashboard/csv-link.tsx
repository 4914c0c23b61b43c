"use client";

import type { DashboardTableName } from "@/lib/domain/dashboard-tables";
import { useT } from "@/lib/i18n/react";

/** A download link for one dashboard table as CSV (GET /api/dashboard/tables/:table), named after the table it sits under. */
export function CsvLink({ table, title }: { table: DashboardTableName; title: string }) {
  const t = useT();
  return (
    <a className="csv-link" href={`/api/dashboard/tables/${table}`} download aria-label={t("dashboard.csvOf", { table: title })}>
      {t("dashboard.csv")}
    </a>
  );
}
