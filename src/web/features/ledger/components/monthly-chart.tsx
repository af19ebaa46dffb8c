import { useId } from 'react';
import type { MonthTotalsDto } from '../../../../shared/contracts/transactions';
import { formatCentsCompact, formatDate, formatDollars } from '../../../lib/format';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 64 };
const IN_COLOR = '#15803d';
const OUT_COLOR = '#334155';

/** "Nov 2026", "Nov" from YYYY-MM (a calendar month: read in UTC). */
const monthLabel = (month: string, year = true) => formatDate(`${month}-01`, year ? 'month' : 'monthName');

/** A round top for the axis, at least $100. */
function axisCeilingCents(cents: number): number {
  if (cents <= 100_00) return 100_00;
  const magnitude = 10 ** Math.floor(Math.log10(cents));
  const step = [1, 2, 4, 5, 10].find((candidate) => candidate * magnitude >= cents) ?? 10;
  return step * magnitude;
}

/**
 * Money in and out per month as an inline SVG of paired bars. Screen readers get a title and a
 * summary; everyone can open the same figures as a table (the chart itself is one image).
 */
export function MonthlyChart({ months, scope }: { months: MonthTotalsDto[]; scope: string }) {
  const titleId = useId();
  const descId = useId();
  const toCents = (dollars: number) => Math.round(dollars * 100);
  const max = axisCeilingCents(Math.max(0, ...months.flatMap((month) => [toCents(month.moneyIn), toCents(month.moneyOut)])));
  const totalIn = months.reduce((sum, month) => sum + toCents(month.moneyIn), 0);
  const totalOut = months.reduce((sum, month) => sum + toCents(month.moneyOut), 0);
  const first = months[0];
  const last = months[months.length - 1];
  const summary =
    first && last
      ? `From ${monthLabel(first.month)} to ${monthLabel(last.month)}: ${formatDollars(totalIn / 100)} in and ${formatDollars(totalOut / 100)} out.`
      : 'No data.';
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerWidth / Math.max(1, months.length);
  const bar = slot * 0.32;
  const heightOf = (dollars: number) => (toCents(dollars) / max) * innerHeight;

  return (
    <figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="h-auto w-full">
        <title id={titleId}>{`Money in and out per month, ${scope}, last ${months.length} months`}</title>
        <desc id={descId}>{summary}</desc>
        {[0, 0.5, 1].map((fraction) => {
          const y = PAD.top + innerHeight * (1 - fraction);
          return (
            <g key={fraction} aria-hidden="true">
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="#cbd5e1" strokeWidth={1} />
              <text x={PAD.left - 8} y={y + 4} textAnchor="end" fontSize={11} fill="#334155">
                {formatCentsCompact(max * fraction)}
              </text>
            </g>
          );
        })}
        <g aria-hidden="true">
          {months.map((month, index) => {
            const x = PAD.left + index * slot + slot * 0.16;
            const inHeight = heightOf(month.moneyIn);
            const outHeight = heightOf(month.moneyOut);
            return (
              <g key={month.month}>
                <rect x={x} y={PAD.top + innerHeight - inHeight} width={bar} height={Math.max(inHeight, month.moneyIn > 0 ? 1 : 0)} rx={2} fill={IN_COLOR}>
                  <title>{`${monthLabel(month.month)}: ${formatDollars(month.moneyIn)} in`}</title>
                </rect>
                <rect
                  x={x + bar + 2}
                  y={PAD.top + innerHeight - outHeight}
                  width={bar}
                  height={Math.max(outHeight, month.moneyOut > 0 ? 1 : 0)}
                  rx={2}
                  fill={OUT_COLOR}
                >
                  <title>{`${monthLabel(month.month)}: ${formatDollars(month.moneyOut)} out`}</title>
                </rect>
                <text x={PAD.left + index * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="#334155">
                  {monthLabel(month.month, false)}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: IN_COLOR }} />
          Money in
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: OUT_COLOR }} />
          Money out
        </span>
        <span>{summary}</span>
      </figcaption>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-brand-800">Show the figures</summary>
        <div
          className="mt-2 overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          tabIndex={0}
          role="region"
          aria-label="Money in and out per month"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{`Money in and out per month, ${scope}, last ${months.length} months`}</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-1 pr-4 font-semibold">
                  Month
                </th>
                <th scope="col" className="py-1 pr-4 text-right font-semibold">
                  Money in
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  Money out
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((month) => (
                <tr key={month.month} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {monthLabel(month.month)}
                  </th>
                  <td className="py-1 pr-4 text-right tabular-nums">{formatDollars(month.moneyIn)}</td>
                  <td className="py-1 text-right tabular-nums">{formatDollars(month.moneyOut)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
