import { BarChart } from '../../../components/ui/bar-chart';
import type { MonthTotalsDto } from '../../../../shared/contracts/transactions';
import { formatDate, formatDollars } from '../../../lib/format';

const IN_COLOR = '#15803d';
const OUT_COLOR = '#334155';
/** Room for a month's label ("May", 13 px) and a gap. */
const MONTH_LABEL_PX = 36;
/** Every month, every other month, a quarter, half a year: whichever leaves the labels room. */
const MONTH_LABEL_STEPS = [1, 2, 3, 6, 12] as const;

/** "Nov 2026", "Nov" from YYYY-MM (a calendar month: read in UTC). */
const monthLabel = (month: string, year = true) => formatDate(`${month}-01`, year ? 'month' : 'monthName');

/**
 * Money in and out per month as an inline SVG of paired bars (BarChart: drawn at the width it is
 * shown, so its labels stay readable on a phone). Screen readers get a title and a summary;
 * everyone can open the same figures as a table (the chart itself is one image).
 */
export function MonthlyChart({ months, scope }: { months: MonthTotalsDto[]; scope: string }) {
  const toCents = (dollars: number) => Math.round(dollars * 100);
  const totalIn = months.reduce((sum, month) => sum + toCents(month.moneyIn), 0);
  const totalOut = months.reduce((sum, month) => sum + toCents(month.moneyOut), 0);
  const first = months[0];
  const last = months[months.length - 1];
  const summary =
    first && last
      ? `From ${monthLabel(first.month)} to ${monthLabel(last.month)}: ${formatDollars(totalIn / 100)} in and ${formatDollars(totalOut / 100)} out.`
      : 'No data.';

  return (
    <figure>
      <BarChart
        title={`Money in and out per month, ${scope}, last ${months.length} months`}
        summary={summary}
        bars={months.length}
        maxCents={Math.max(0, ...months.flatMap((month) => [toCents(month.moneyIn), toCents(month.moneyOut)]))}
      >
        {(chart) => {
          const bar = chart.slot * 0.32;
          const every = chart.labelEvery(MONTH_LABEL_PX, MONTH_LABEL_STEPS);
          return months.map((month, index) => {
            const x = chart.slotLeft(index) + chart.slot * 0.16;
            const inHeight = chart.barHeight(toCents(month.moneyIn));
            const outHeight = chart.barHeight(toCents(month.moneyOut));
            return (
              <g key={month.month}>
                <rect x={x} y={chart.baseline - inHeight} width={bar} height={inHeight} rx={2} fill={IN_COLOR}>
                  <title>{`${monthLabel(month.month)}: ${formatDollars(month.moneyIn)} in`}</title>
                </rect>
                <rect x={x + bar + 2} y={chart.baseline - outHeight} width={bar} height={outHeight} rx={2} fill={OUT_COLOR}>
                  <title>{`${monthLabel(month.month)}: ${formatDollars(month.moneyOut)} out`}</title>
                </rect>
                {chart.label(index, every, monthLabel(month.month, false))}
              </g>
            );
          });
        }}
      </BarChart>
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
