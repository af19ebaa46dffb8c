import { Check } from 'lucide-react';
import { useLocation, type MetaArgs } from 'react-router';
import { Disclosure, Hero, heroArtClass, Section } from '../../components/marketing/hero';
import { Art } from '../../components/marketing/art';
import { allPageTitles } from '../../content/pages';
import { productPageByPath } from '../../content/products';
import type { ProductPage } from '../../content/types';
import { BANK_NAME } from '../../lib/settings';
import { PageLink } from '../../components/ui/page-link';
import { pageTitle } from '../../lib/title';

// One module serves the 15 business and resources pages, each found by its path; the copy and
// figures live in src/web/content.
const pageFor = (pathname: string): ProductPage | undefined => productPageByPath.get(pathname.replace(/\/+$/, ''));

export function meta({ location }: MetaArgs) {
  const page = pageFor(location.pathname);
  return [{ title: pageTitle(page?.title ?? 'Banking products') }, { name: 'description', content: page?.summary ?? `${BANK_NAME} banking products.` }];
}

export default function ProductPageRoute() {
  const page = pageFor(useLocation().pathname);
  if (!page) throw new Response('Not Found', { status: 404 });
  return (
    <>
      <Hero eyebrow={page.eyebrow} title={page.title} summary={page.summary} cta={page.cta} art={<Art name={page.art} className={heroArtClass} />} />
      <Section>
        <div className="max-w-3xl space-y-4 text-lg leading-relaxed text-slate-800">
          {page.intro.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      </Section>
      {page.offers ? (
        <Section title={page.offersTitle ?? 'At a glance'} id="offers" tinted>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {page.offers.map((offer) => (
              <li key={offer.name} className="flex flex-col rounded-xl border border-slate-200 bg-slate-50 p-6 shadow-sm">
                <h3 className="text-xl font-bold text-slate-900">{offer.name}</h3>
                <p className="mt-3 text-3xl font-extrabold text-brand-700">{offer.figure}</p>
                <p className="text-sm text-slate-700">{offer.figureLabel}</p>
                <ul className="mt-4 space-y-2 text-slate-800">
                  {offer.points.map((point) => (
                    <li key={point} className="flex gap-2">
                      <Check aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 text-brand-700" />
                      {point}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {page.features ? (
        <Section title={page.featuresTitle ?? 'Features'} id="features" tinted={!page.offers}>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {page.features.map((feature) => (
              <li key={feature.title} className="rounded-xl border border-slate-200 bg-white p-6">
                <h3 className="text-lg font-bold text-slate-900">{feature.title}</h3>
                <p className="mt-2 text-slate-700">{feature.text}</p>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {page.steps ? (
        <Section title={page.stepsTitle ?? 'How it works'} id="steps">
          <ol className="mt-6 max-w-3xl list-decimal space-y-3 pl-6 text-lg text-slate-800 marker:font-bold marker:text-brand-700">
            {page.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </Section>
      ) : null}
      <Section>
        <Disclosure {...page.disclosure} />
        <nav aria-label="Related pages" className="mt-10">
          <h2 className="text-xl font-bold text-slate-900">You may also like</h2>
          <ul className="mt-4 flex flex-wrap gap-3">
            {page.related.map((path) => (
              <li key={path}>
                <PageLink
                  to={path}
                  className="inline-block rounded-full border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  {allPageTitles[path] ?? path}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
      </Section>
    </>
  );
}
