import { useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { formatCentsCompact } from '../../lib/format';

// A bar chart is drawn at the width it is shown (one unit, one CSS pixel), not scaled from a fixed
// 720-unit drawing: scaled, its 11-unit labels shrank to about 5 px on a 375 px phone. So its
// labels keep a readable size at every width, the bars take the room there is, and a narrow chart
// labels fewer bars (labelStep). The customer's monthly chart and the staff dashboard's daily
// chart are both drawn here.
const WIDTH = 720;
const HEIGHT = 220;
const HEIGHT_MIN = 200;
/** The labels' size, in CSS pixels at every width. */
const FONT_PX = 13;
const PAD = { top: 12, right: 24, bottom: 30, left: 56 };
const TEXT_COLOR = '#334155';

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

/** A round top for the axis (its half is round too), at least $100: an empty chart reads $0 / $50 / $100, not $0 three times. */
export function axisCeilingCents(cents: number): number {
  const floorCents = 100_00;
  if (cents <= floorCents) return floorCents;
  const magnitude = 10 ** Math.floor(Math.log10(cents));
  const step = [1, 2, 4, 5, 10].find((candidate) => candidate * magnitude >= cents) ?? 10;
  return step * magnitude;
}

/** Where the chart's bars go, in CSS pixels. */
export interface BarChartLayout {
  /** The room of one bar (or one group of bars), from `slotLeft(index)`. */
  slot: number;
  slotLeft: (index: number) => number;
  /** The y of $0. */
  baseline: number;
  /** A bar's height for an amount, at least 1 px when the amount is not zero. */
  barHeight: (cents: number) => number;
  /** Every how many bars one gets a label along the bottom (see labelStep). */
  labelEvery: (labelPx: number, steps: readonly number[]) => number;
  /** A label under the bar at `index`, when `every` (from labelEvery) counts it, back from the last bar (the latest is always labelled). */
  label: (index: number, every: number, text: string) => ReactNode;
}

/**
 * An inline SVG bar chart: one image for assistive technology (its title and a summary), with a
 * $0 / half / top axis; `children` draws the bars (aria-hidden) from the layout. Give the same
 * figures as a table next to it.
 */
export function BarChart({
  title,
  summary,
  bars,
  maxCents,
  children,
}: {
  title: string;
  summary: string;
  /** How many bars (or groups of bars) across. */
  bars: number;
  /** The largest amount drawn: the axis's top is a round amount above it. */
  maxCents: number;
  children: (layout: BarChartLayout) => ReactNode;
}) {
  const titleId = useId();
  const descId = useId();
  const [frame, width] = useWidth<HTMLDivElement>();
  const height = Math.max(HEIGHT_MIN, Math.round((width * HEIGHT) / WIDTH));
  const max = axisCeilingCents(maxCents);
  const innerWidth = width - PAD.left - PAD.right;
  const innerHeight = height - PAD.top - PAD.bottom;
  const slot = innerWidth / Math.max(1, bars);
  const baseline = PAD.top + innerHeight;
  const layout: BarChartLayout = {
    slot,
    slotLeft: (index) => PAD.left + index * slot,
    baseline,
    barHeight: (cents) => (cents === 0 ? 0 : Math.max(1, (cents / max) * innerHeight)),
    labelEvery: (labelPx, steps) => labelStep(slot, labelPx, steps),
    label: (index, every, text) =>
      (bars - 1 - index) % every === 0 ? (
        <text key={`label-${index}`} x={PAD.left + index * slot + slot / 2} y={height - 9} textAnchor="middle" fontSize={FONT_PX} fill={TEXT_COLOR}>
          {text}
        </text>
      ) : null,
  };

  return (
    <div ref={frame}>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-labelledby={`${titleId} ${descId}`} className="block h-auto w-full">
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summary}</desc>
        {[0, 0.5, 1].map((fraction) => {
          const y = PAD.top + innerHeight * (1 - fraction);
          return (
            <g key={fraction} aria-hidden="true">
              <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} stroke="#cbd5e1" strokeWidth={1} />
              <text x={PAD.left - 8} y={y + 4} textAnchor="end" fontSize={FONT_PX} fill={TEXT_COLOR}>
                {formatCentsCompact(max * fraction)}
              </text>
            </g>
          );
        })}
        <g aria-hidden="true">{children(layout)}</g>
      </svg>
    </div>
  );
}

/**
 * The smallest of `steps` (every month, every other month, a quarter…) that leaves `labelPx` (a
 * label's width and a gap) between two labels `slot` pixels apart; the largest step if none does.
 */
function labelStep(slot: number, labelPx: number, steps: readonly number[]): number {
  return steps.find((step) => step * slot >= labelPx) ?? steps[steps.length - 1] ?? 1;
}
