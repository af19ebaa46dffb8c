import { Hero, heroArtClass, Section } from '../../components/marketing/hero';
import { Art } from '../../components/marketing/art';
import { privacy } from '../../content/privacy';
import { BANK_NAME } from '../../lib/settings';
import { pageTitle } from '../../lib/title';

// Served at /privacy-policy and /terms-and-conditions (spec section 2: the same page).
export function meta() {
  return [
    { title: pageTitle('Privacy Policy') },
    { name: 'description', content: `How ${BANK_NAME} collects, uses and protects your personal information, and the terms of using this site.` },
  ];
}

export default function PrivacyPolicyPage() {
  return (
    <>
      <Hero
        eyebrow="Your data"
        title="Privacy Policy"
        summary={`How ${BANK_NAME} collects, uses and protects your information, and the terms of using this website.`}
        cta="Sign in to your account"
        art={<Art name="shield" className={heroArtClass} />}
      />
      <Section>
        <p className="text-sm text-slate-700">Last updated: {privacy.updated}</p>
        <nav aria-label="On this page" className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="font-bold text-slate-900">On this page</h2>
          <ol className="mt-3 grid list-decimal gap-1 pl-5 text-brand-800 sm:grid-cols-2">
            {privacy.sections.map((section, index) => (
              <li key={section.title}>
                <a href={`#policy-${index}`} className="underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="mt-10 max-w-3xl space-y-10">
          {privacy.sections.map((section, index) => (
            <section key={section.title} aria-labelledby={`policy-${index}`}>
              <h2 id={`policy-${index}`} className="text-2xl font-bold text-slate-900">
                {section.title}
              </h2>
              {section.paragraphs.map((text) => (
                <p key={text} className="mt-3 leading-relaxed text-slate-800">
                  {text}
                </p>
              ))}
            </section>
          ))}
        </div>
      </Section>
    </>
  );
}
