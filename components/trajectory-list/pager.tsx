type Props = { page: number; pageSize: number; total: number; onPage: (page: number) => void };

export function Pager({ page, pageSize, total, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <nav className="pager" aria-label="Pagination">
      <span>
        {from.toLocaleString("en-US")}–{to.toLocaleString("en-US")} of {total.toLocaleString("en-US")} · page {page} of {pages}
      </span>
      <span className="pager-buttons">
        <button className="btn" type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous page
        </button>
        <button className="btn" type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </button>
      </span>
    </nav>
  );
}
