import { PageLink } from '../../components/ui/page-link';
import { buttonClass } from '../../components/ui/button';
import { Hero, heroArtClass, Section } from '../../components/marketing/hero';
import { Art } from '../../components/marketing/art';
import { waysToBank } from '../../content/ways-to-bank';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Ways to Bank') }, { name: 'description', content: waysToBank.summary }];
}

export default function WaysToBankPage() {
  return (
    <>
      <Hero
        eyebrow="Getting started"
        title="Ways to Bank"
        summary={waysToBank.summary}
        cta="Login Account"
        art={<Art name="phone" className={heroArtClass} />}
      />
      <Section title="Three steps to online banking" id="steps">
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {waysToBank.steps.map((step, index) => (
            <li key={step.title} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
                {index + 1}
              </span>
              <h3 className="mt-4 text-xl font-bold text-slate-900">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 flex-1 text-slate-700">{step.text}</p>
              <PageLink to={step.to} className={buttonClass('secondary', 'mt-5 self-start')}>
                {step.action}
              </PageLink>
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Bank your way" id="channels" tinted>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {waysToBank.channels.map((channel) => (
            <li key={channel.title} className="rounded-xl bg-slate-50 p-6">
              <h3 className="text-lg font-bold text-slate-900">{channel.title}</h3>
              <p className="mt-2 text-slate-700">{channel.text}</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
