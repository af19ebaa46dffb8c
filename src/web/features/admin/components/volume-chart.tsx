import { BarChart } from '../../../components/ui/bar-chart';
import type { DashboardDay } from '../../../../shared/contracts/admin';
import { formatCents, formatDate } from '../../../lib/format';

/** Room for a day's label ("Nov 30", 13 px) and a gap. */
const DAY_LABEL_PX = 56;
/** A label every week, or every other week where the chart is narrow. */
const DAY_LABEL_STEPS = [7, 14] as const;

const formatDay = (date: string) => formatDate(date, 'day');

/**
 * The last 30 days' transfer volume as an inline SVG bar chart (BarChart: drawn at the width it is
 * shown, so its labels stay readable on a phone). Screen readers get a title and a summary;
 * everyone can open the same numbers as a table.
 */
export function VolumeChart({ days }: { days: DashboardDay[] }) {
  const total = days.reduce((sum, day) => sum + day.volumeCents, 0);
  const count = days.reduce((sum, day) => sum + day.count, 0);
  const busiest = days.reduce<DashboardDay | null>((best, day) => (!best || day.volumeCents > best.volumeCents ? day : best), null);
  const first = days[0];
  const last = days[days.length - 1];
  const summary =
    first && last
      ? `${count} transfers worth ${formatCents(total)} from ${formatDay(first.date)} to ${formatDay(last.date)}.` +
        (busiest && busiest.volumeCents > 0 ? ` Busiest day ${formatDay(busiest.date)} with ${formatCents(busiest.volumeCents)}.` : '')
      : 'No data.';

  return (
    <figure>
      <BarChart title="Transfer volume, last 30 days" summary={summary} bars={days.length} maxCents={Math.max(0, ...days.map((day) => day.volumeCents))}>
        {(chart) => {
          const every = chart.labelEvery(DAY_LABEL_PX, DAY_LABEL_STEPS);
          return days.map((day, index) => {
            const height = chart.barHeight(day.volumeCents);
            return (
              <g key={day.date}>
                <rect x={chart.slotLeft(index) + chart.slot * 0.15} y={chart.baseline - height} width={chart.slot * 0.7} height={height} rx={2} fill="#1d4ed8">
                  <title>{`${formatDay(day.date)}: ${formatCents(day.volumeCents)} in ${day.count} transfers`}</title>
                </rect>
                {chart.label(index, every, formatDay(day.date))}
              </g>
            );
          });
        }}
      </BarChart>
      <figcaption className="mt-2 text-sm text-slate-700">{summary}</figcaption>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-brand-800">Show the numbers</summary>
        <div
          className="mt-2 max-h-72 overflow-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          tabIndex={0}
          role="region"
          aria-label="Transfers per day"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Transfers per day, last 30 days</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-1 pr-4 font-semibold">
                  Date
                </th>
                <th scope="col" className="py-1 pr-4 text-right font-semibold">
                  Transfers
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  Volume
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {formatDay(day.date)}
                  </th>
                  <td className="py-1 pr-4 text-right">{day.count}</td>
                  <td className="py-1 text-right">{formatCents(day.volumeCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
