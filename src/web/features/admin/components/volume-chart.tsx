import { useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { DashboardDay } from '../../../../shared/contracts/admin';
import { formatCents, formatCentsCompact, formatDate } from '../../../lib/format';

// The chart is drawn at the width it is shown (one unit, one CSS pixel), not scaled from a fixed
// 720-unit drawing: scaled, its 11-unit labels shrank to about 5 px on a 375 px phone. So the
// labels keep a readable size at every width; the bars take the room there is.
const WIDTH = 720;
const HEIGHT = 220;
const HEIGHT_MIN = 200;
const FONT_PX = 13;
const PAD = { top: 12, right: 24, bottom: 30, left: 56 };
/** Below this width, a day label every other week (a label is about 45 px wide). */
const NARROW_PX = 480;

/** The element's rendered width in CSS pixels (WIDTH until it is measured), kept up to date. */
function useWidth<Element extends HTMLElement>(): [RefObject<Element | null>, number] {
  const ref = useRef<Element>(null);
  const [width, setWidth] = useState(WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(240, Math.round(element.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const formatDay = (date: string) => formatDate(date, 'day');

/**
 * The last 30 days' transfer volume as an inline SVG bar chart. Screen readers get a title and a
 * summary; everyone can open the same numbers as a table.
 */
/** A round top for the axis (its half is round too), at least $100: an empty month reads $0 / $50 / $100, not $0 three times. */
function axisCeilingCents(cents: number): number {
  const floorCents = 100_00;
  if (cents <= floorCents) return floorCents;
  const magnitude = 10 ** Math.floor(Math.log10(cents));
  const step = [1, 2, 4, 5, 10].find((candidate) => candidate * magnitude >= cents) ?? 10;
  return step * magnitude;
}

export function VolumeChart({ days }: { days: DashboardDay[] }) {
  const titleId = useId();
  const descId = useId();
  const [frame, width] = useWidth<HTMLDivElement>();
  const height = Math.max(HEIGHT_MIN, Math.round((width * HEIGHT) / WIDTH));
  const labelEvery = width < NARROW_PX ? 14 : 7;
  const max = axisCeilingCents(Math.max(0, ...days.map((day) => day.volumeCents)));
  const total = days.reduce((sum, day) => sum + day.volumeCents, 0);
  const count = days.reduce((sum, day) => sum + day.count, 0);
  const busiest = days.reduce<DashboardDay | null>((best, day) => (!best || day.volumeCents > best.volumeCents ? day : best), null);
  const innerWidth = width - PAD.left - PAD.right;
  const innerHeight = height - PAD.top - PAD.bottom;
  const slot = innerWidth / Math.max(1, days.length);
  const first = days[0];
  const last = days[days.length - 1];
  const summary =
    first && last
      ? `${count} transfers worth ${formatCents(total)} from ${formatDay(first.date)} to ${formatDay(last.date)}.` +
        (busiest && busiest.volumeCents > 0 ? ` Busiest day ${formatDay(busiest.date)} with ${formatCents(busiest.volumeCents)}.` : '')
      : 'No data.';

  return (
    <figure>
      <div ref={frame}>
        <svg
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          className="block h-auto w-full"
        >
          <title id={titleId}>Transfer volume, last 30 days</title>
          <desc id={descId}>{summary}</desc>
          {[0, 0.5, 1].map((fraction) => {
            const y = PAD.top + innerHeight * (1 - fraction);
            return (
              <g key={fraction} aria-hidden="true">
                <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} stroke="#cbd5e1" strokeWidth={1} />
                <text x={PAD.left - 8} y={y + 4} textAnchor="end" fontSize={FONT_PX} fill="#334155">
                  {formatCentsCompact(max * fraction)}
                </text>
              </g>
            );
          })}
          <g aria-hidden="true">
            {days.map((day, index) => {
              const height = (day.volumeCents / max) * innerHeight;
              const x = PAD.left + index * slot + slot * 0.15;
              return (
                <rect
                  key={day.date}
                  x={x}
                  y={PAD.top + innerHeight - height}
                  width={slot * 0.7}
                  height={Math.max(height, day.volumeCents > 0 ? 1 : 0)}
                  rx={2}
                  fill="#1d4ed8"
                >
                  <title>{`${formatDay(day.date)}: ${formatCents(day.volumeCents)} in ${day.count} transfers`}</title>
                </rect>
              );
            })}
            {days.map((day, index) =>
              (days.length - 1 - index) % labelEvery === 0 ? (
                <text key={day.date} x={PAD.left + index * slot + slot / 2} y={height - 9} textAnchor="middle" fontSize={FONT_PX} fill="#334155">
                  {formatDay(day.date)}
                </text>
              ) : null,
            )}
          </g>
        </svg>
      </div>
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
