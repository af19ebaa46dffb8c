import { ArrowRight, ArrowRightLeft, Camera, Send } from 'lucide-react';
import { Art } from '../../components/marketing/art';
import { ctaClass, Section } from '../../components/marketing/hero';
import { HeroSlider } from '../../components/marketing/hero-slider';
import { accessFeatures, helpCards, loanTiles, news, promoCards, savingsCta, slides } from '../../content/home';
import { BANK_NAME } from '../../lib/settings';
import { PageLink } from '../../components/ui/page-link';

export function meta() {
  return [
    { title: `${BANK_NAME}: personal, business and online banking` },
    { name: 'description', content: `${BANK_NAME}: checking, savings, loans, investments and business banking, online.` },
  ];
}

const accessIcons = [ArrowRightLeft, Camera, Send];
const learnMoreClass =
  'mt-4 inline-flex items-center gap-1 text-sm font-bold tracking-wide text-brand-800 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600';

export default function HomePage() {
  return (
    <>
      <HeroSlider slides={slides} heading={`Welcome to ${BANK_NAME}`} />

      <Section title="How Can we help you today?" id="help">
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {helpCards.map((card) => (
            <li key={card.to} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-bold text-slate-900">{card.title}</h3>
              <p className="mt-2 flex-1 text-slate-700">{card.text}</p>
              <PageLink to={card.to} className={learnMoreClass}>
                LEARN MORE<span className="sr-only"> about {card.title}</span>
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </PageLink>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Banking for every part of your life" id="promos" tinted>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {promoCards.map((card) => (
            <li key={card.title} className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-50">
              <div className="bg-gradient-to-br from-brand-800 to-brand-600 p-4">
                <Art name={card.art} className="mx-auto h-28 w-28" />
              </div>
              <div className="flex flex-1 flex-col p-5">
                <h3 className="text-lg font-bold text-slate-900">{card.title}</h3>
                <p className="mt-2 flex-1 text-slate-700">{card.text}</p>
                <PageLink to={card.to} className={learnMoreClass}>
                  {card.action}
                  <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </PageLink>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="access" className="bg-brand-900 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 md:grid-cols-2">
          <div>
            <h2 id="access" className="text-3xl font-bold">
              Access us wherever you go
            </h2>
            <p className="mt-4 text-lg text-slate-200">Internet banking works in any modern browser, on your phone, tablet or computer.</p>
            <ul className="mt-6 space-y-4">
              {accessFeatures.map((feature, index) => {
                const Icon = accessIcons[index] ?? Send;
                return (
                  <li key={feature.title} className="flex gap-3">
                    <Icon aria-hidden="true" className="mt-1 h-6 w-6 shrink-0 text-accent-500" />
                    <div>
                      <h3 className="font-bold">{feature.title}</h3>
                      <p className="text-slate-200">{feature.text}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
            <PageLink to="/signin" className={`${ctaClass} mt-8`}>
              Internet Banking
            </PageLink>
          </div>
          <Art name="phone" className="mx-auto h-72 w-72" />
        </div>
      </section>

      <Section title="Loans for what matters next" id="loans">
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          {loanTiles.map((tile) => (
            <li key={tile.title} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="shrink-0 rounded-lg bg-brand-800 p-2">
                <Art name={tile.art} className="h-16 w-16" />
              </div>
              <div>
                <h3 className="text-lg font-bold text-slate-900">{tile.title}</h3>
                <p className="mt-1 text-slate-700">{tile.text}</p>
                <PageLink to={tile.to} className={learnMoreClass}>
                  LEARN MORE<span className="sr-only"> about {tile.title}</span>
                  <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </PageLink>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="savings-cta" className="bg-gradient-to-r from-brand-700 to-brand-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="savings-cta" className="text-3xl font-bold">
              {savingsCta.title}
            </h2>
            <p className="mt-3 max-w-2xl text-lg text-slate-100">{savingsCta.text}</p>
          </div>
          <PageLink to="/signin" className={ctaClass}>
            APPLY NOW
          </PageLink>
        </div>
      </section>

      <Section title="Your news and information" id="news" tinted>
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          {news.map((item) => (
            <li key={item.title} className="flex flex-col rounded-xl border border-slate-200 bg-slate-50 p-6">
              <h3 className="text-lg font-bold text-slate-900">{item.title}</h3>
              <p className="mt-2 flex-1 text-slate-700">{item.text}</p>
              <PageLink to={item.to} className={learnMoreClass}>
                {item.action}
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </PageLink>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-col items-start gap-4 rounded-xl bg-brand-50 p-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-lg text-slate-900">Have a question we have not answered here?</p>
          <PageLink
            to="/contact"
            className="inline-flex items-center justify-center rounded-md bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
          >
            ASK QUESTIONS
          </PageLink>
        </div>
      </Section>
    </>
  );
}
