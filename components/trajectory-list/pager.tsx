import { useFormat, useT } from "@/lib/i18n/react";

type Props = { page: number; pageSize: number; total: number; onPage: (page: number) => void };

export function Pager({ page, pageSize, total, onPage }: Props) {
  const t = useT();
  const nf = useFormat().number;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <nav className="pager" aria-label={t("list.pager")}>
      <span>{t("list.pager.range", { from: nf(from), to: nf(to), total: nf(total), page: nf(page), pages: nf(pages) })}</span>
      <span className="pager-buttons">
        <button className="btn" type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t("list.pager.prev")}
        </button>
        <button className="btn" type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t("list.pager.next")}
        </button>
      </span>
    </nav>
  );
}
