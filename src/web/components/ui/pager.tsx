import { useEffect, useRef } from 'react';
import { focusIfUsable, focusLost } from '../../lib/focus';
import { formatNumber } from '../../lib/format';
import { Button } from './button';

/**
 * Previous / next with the position in words; the page count comes from the server's total ("about"
 * when it is estimated). Next on the last page (or Previous on the first) is disabled once pressed:
 * focus moves to the button that remains, which the new position is read before, rather than fall
 * to the page. A page past the end says so, and Previous takes the reader to the last page.
 *
 * Not restoreFocus (lib/focus.ts), which useAction uses after a call: a page is a navigation (the
 * address changes, where restoreFocus stops), and restoreFocus waits a moment for a disabled button
 * to come back (a busy one does) before it picks another place, the section's heading here; Next
 * disabled at the last page stays so, and the other button is the place, at once.
 */
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
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const pressed = useRef<'previous' | 'next' | null>(null);
  useEffect(() => {
    const [gone, other] = pressed.current === 'next' ? [next.current, previous.current] : [previous.current, next.current];
    if (pressed.current && gone?.disabled && (document.activeElement === gone || focusLost())) focusIfUsable(other);
  }, [page, pages]);
  const about = estimated ? 'about ' : '';
  const results = `${about}${formatNumber(total)} ${total === 1 ? 'result' : 'results'}`;
  // A page past the end (an address edited by hand, a list that shrank) says so, and Previous goes to the last page.
  const pastEnd = page > pages && total > 0 && !estimated;
  return (
    <nav aria-label={`${label} pages`} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" aria-live="polite">
        {pastEnd
          ? `Page ${formatNumber(page)} is past the end: the last is page ${formatNumber(pages)} (${results})`
          : `Page ${Math.min(page, pages)} of ${about}${formatNumber(pages)} (${results})`}
      </p>
      <div className="flex gap-2">
        <Button
          ref={previous}
          variant="secondary"
          disabled={page <= 1}
          onClick={() => {
            pressed.current = 'previous';
            onPage(pastEnd ? pages : page - 1);
          }}
        >
          Previous
        </Button>
        <Button
          ref={next}
          variant="secondary"
          disabled={page >= pages}
          onClick={() => {
            pressed.current = 'next';
            onPage(page + 1);
          }}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
