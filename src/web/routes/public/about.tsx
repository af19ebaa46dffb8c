import { Hero, heroArtClass, Section } from '../../components/marketing/hero';
import { Art } from '../../components/marketing/art';
import { about } from '../../content/about';
import { PageLink } from '../../components/ui/page-link';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('About Us') }, { name: 'description', content: about.summary }];
}

export default function AboutPage() {
  return (
    <>
      <Hero eyebrow="Who we are" title="About Us" summary={about.summary} cta="Open an account" art={<Art name="people" className={heroArtClass} />} />
      <Section>
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
          <div className="space-y-4 text-lg leading-relaxed text-slate-800">
            <h2 className="text-3xl font-bold text-slate-900">Our story</h2>
            {about.story.map((text) => (
              <p key={text}>{text}</p>
            ))}
          </div>
          <dl className="grid grid-cols-2 gap-4">
            {about.facts.map((fact) => (
              <div key={fact.label} className="rounded-xl bg-brand-900 p-5 text-white">
                <dt className="text-sm text-slate-200">{fact.label}</dt>
                <dd className="mt-1 text-3xl font-extrabold">{fact.figure}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>
      <Section title="Our values" id="values" tinted>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {about.values.map((value) => (
            <li key={value.title} className="rounded-xl border border-slate-200 bg-slate-50 p-6">
              <h3 className="text-xl font-bold text-brand-800">{value.title}</h3>
              <p className="mt-2 text-slate-700">{value.text}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section>
        <div className="grid gap-6 md:grid-cols-2">
          <div className="rounded-xl border border-slate-200 bg-white p-6">
            <h2 className="text-2xl font-bold text-slate-900">Our mission</h2>
            <p className="mt-3 text-lg text-slate-800">{about.mission}</p>
          </div>
          <div className="rounded-xl border border-slate-200 bg-white p-6">
            <h2 className="text-2xl font-bold text-slate-900">Our vision</h2>
            <p className="mt-3 text-lg text-slate-800">{about.vision}</p>
          </div>
        </div>
      </Section>
      <Section title="Leadership" id="leadership" tinted>
        <div className="mt-4 max-w-3xl space-y-4 text-lg text-slate-800">
          {about.leadership.map((text) => (
            <p key={text}>{text}</p>
          ))}
          <p>
            Questions for our team?{' '}
            <PageLink to="/contact" className="font-semibold text-brand-800 underline">
              Contact us
            </PageLink>
            .
          </p>
        </div>
      </Section>
    </>
  );
}
