import { formatNumber } from '../../lib/format';
import { Button } from './button';

/** Previous / next with the position in words; the page count comes from the server's total ("about" when it is estimated). */
export function Pager({
  page,
  pageSize,
  total,
  estimated = false,
  label,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The total is an estimate (a search with very many matches): said as "about". */
  estimated?: boolean;
  label: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const about = estimated ? 'about ' : '';
  return (
    <nav aria-label={`${label} pages`} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" aria-live="polite">
        {`Page ${Math.min(page, pages)} of ${about}${formatNumber(pages)} (${about}${formatNumber(total)} ${total === 1 ? 'result' : 'results'})`}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
