import { Hero, heroArtClass, Section } from '../../components/marketing/hero';
import { Art } from '../../components/marketing/art';
import { VerifyStatementForm } from '../../features/statements/components/verify-statement-form';
import { BANK_NAME } from '../../lib/settings';
import { pageTitle } from '../../lib/title';

// Public and prerendered: a landlord or a lender checks a statement a customer gave them. The
// signed message's format is the one in docs/decisions/015-verifiable-statements.md.
export function meta() {
  return [
    { title: pageTitle('Verify a statement') },
    { name: 'description', content: `Check that a ${BANK_NAME} statement is genuine and unchanged: upload the PDF the customer gave you.` },
  ];
}

const MESSAGE_FORMAT = [
  'ledgerline-statement-signature-v1',
  'statement-id: <statementId>',
  'key-id: <keyId>',
  'issued-at: <issuedAt>',
  'customer-name: <customerName>',
  'account-number-masked: <accountNumberMasked>',
  'account: <account>',
  'period: <period>',
  'sha256: <SHA-256 of the PDF, lowercase hex>',
  'ledger-chain-position: <ledgerChainPosition>',
  'ledger-chain-hash: <ledgerChainHash>',
].join('\n');

export default function VerifyStatementPage() {
  return (
    <>
      <Hero
        eyebrow="For landlords and lenders"
        title="Verify a statement"
        summary={`Edited bank statements are a common fraud. Upload a ${BANK_NAME} statement to see whether it is exactly the one the bank issued.`}
        cta="Sign in to your account"
        art={<Art name="shield" className={heroArtClass} />}
        height={360}
      />
      <Section>
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
          <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <h2 className="mb-6 text-2xl font-bold text-slate-900">Check a statement</h2>
            <VerifyStatementForm bankName={BANK_NAME} />
          </div>
          <aside aria-labelledby="how-it-works" className="space-y-4 text-slate-800">
            <h2 id="how-it-works" className="text-2xl font-bold text-slate-900">
              How it works
            </h2>
            <p>
              When {BANK_NAME} issues a monthly statement it records the SHA-256 fingerprint of the PDF's exact bytes and signs it. Any change to the file, a
              single digit included, changes the fingerprint, so an edited statement is not recognised.
            </p>
            <p>Interim statements (the current month so far) are not signed and cannot be verified.</p>
            <h3 className="pt-2 text-lg font-bold text-slate-900">Check it yourself, offline</h3>
            <p>
              The answer includes an Ed25519 signature. Rebuild this message from the answer (UTF-8, lines joined by a line feed, no final line feed) and check
              the signature with the bank's public key for its key id, published at{' '}
              <a href="/api/statements/public-key" className="font-semibold text-brand-800 underline">
                /api/statements/public-key
              </a>
              :
            </p>
            <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">{MESSAGE_FORMAT}</pre>
          </aside>
        </div>
      </Section>
    </>
  );
}
