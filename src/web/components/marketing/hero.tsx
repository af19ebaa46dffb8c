import type { ReactNode } from 'react';
import { heroHeightPx } from '../../content/figures';
import { PageLink } from '../ui/page-link';

export const ctaClass =
  'inline-flex items-center justify-center rounded-md bg-accent-500 px-6 py-3 text-base font-bold text-slate-900 shadow transition hover:bg-white focus:outline-none focus-visible:ring-4 focus-visible:ring-white';

/** How a hero's illustration sits: beside the text from md up, left out on a phone. */
export const heroArtClass = 'mx-auto hidden h-72 w-72 md:block';

/**
 * Every marketing page opens with this banner (500 px high by default) and its call to action to
 * /signin. `art` is the page's own <Art className={heroArtClass} />: a page without one (the
 * contact form's) does not download the illustrations.
 */
export function Hero({
  eyebrow,
  title,
  summary,
  cta,
  art,
  height = heroHeightPx,
  children,
}: {
  eyebrow?: string;
  title: string;
  summary: ReactNode;
  cta: string;
  art?: ReactNode;
  height?: number;
  children?: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white" style={{ minHeight: height }}>
      <div className="mx-auto grid h-full max-w-7xl items-center gap-8 px-4 py-14 md:grid-cols-[3fr_2fr]" style={{ minHeight: height }}>
        <div>
          {eyebrow ? <p className="text-sm font-semibold uppercase tracking-widest text-accent-500">{eyebrow}</p> : null}
          <h1 className="mt-3 text-4xl font-extrabold leading-tight sm:text-5xl">{title}</h1>
          <p className="mt-5 max-w-xl text-lg text-slate-100">{summary}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PageLink to="/signin" className={ctaClass}>
              {cta}
            </PageLink>
            {children}
          </div>
        </div>
        {art}
      </div>
    </section>
  );
}

export function Section({
  title,
  id,
  children,
  className = '',
  tinted = false,
}: {
  title?: string;
  id?: string;
  children: ReactNode;
  className?: string;
  tinted?: boolean;
}) {
  return (
    <section aria-labelledby={title && id ? id : undefined} className={`${tinted ? 'bg-white' : ''} ${className}`}>
      <div className="mx-auto max-w-7xl px-4 py-14">
        {title ? (
          <h2 id={id} className="text-3xl font-bold text-slate-900">
            {title}
          </h2>
        ) : null}
        {children}
      </div>
    </section>
  );
}

export function Disclosure({ title, paragraphs }: { title: string; paragraphs: string[] }) {
  return (
    <aside aria-label={title} className="rounded-xl border-l-4 border-amber-500 bg-amber-50 p-6 text-slate-800">
      <h2 className="text-lg font-bold text-slate-900">{title}</h2>
      {paragraphs.map((text) => (
        <p key={text} className="mt-3 text-sm leading-relaxed">
          {text}
        </p>
      ))}
    </aside>
  );
}
