import { useEffect, useState } from 'react';
import type { PasswordStrength as Strength } from '../../../shared/password-strength';
import { BANK_NAME } from '../../lib/settings';

type Scorer = (password: string, userInputs?: string[]) => Strength;

// The scorer (zxcvbn-ts and its dictionaries, about a megabyte) is a chunk of its own, fetched once
// the first character is typed in a new-password field: the public pages stay light, and a visitor
// who never types a password never downloads it. The server decides; this only shows the estimate.
let scorer: Promise<Scorer> | undefined;
const loadScorer = () => (scorer ??= import('../../lib/password-scorer').then((module) => module.passwordStrength));

const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
const BAR_COLOURS = ['bg-red-600', 'bg-red-600', 'bg-amber-500', 'bg-green-600', 'bg-green-700'] as const;

/**
 * A strength meter with zxcvbn's feedback, under a new-password field. `userInputs` are words the
 * password should not lean on (the person's names and email); the bank's name is always one.
 */
export function PasswordStrength({ password, userInputs = [] }: { password: string; userInputs?: string[] }) {
  const [score, setScore] = useState<Scorer | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (score || password === '') return;
    let current = true;
    loadScorer().then(
      (loaded) => current && setScore(() => loaded),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [password, score]);

  // The live region stays mounted (empty) so that screen readers announce the estimate as it changes.
  return (
    <div aria-live="polite" className="empty:hidden">
      {password === '' || failed ? null : !score ? (
        <p className="mt-2 text-sm text-slate-600">Checking the password&apos;s strength...</p>
      ) : (
        <Meter strength={score(password, [...userInputs, BANK_NAME])} />
      )}
    </div>
  );
}

function Meter({ strength }: { strength: Strength }) {
  const advice = [strength.warning, ...strength.suggestions].filter((text): text is string => Boolean(text));
  return (
    <div className="mt-2" data-testid="password-strength">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={`h-1.5 flex-1 rounded-full ${strength.score >= step ? BAR_COLOURS[strength.score] : 'bg-slate-200'}`} />
        ))}
      </div>
      <div className="mt-1 text-sm text-slate-700">
        <p>
          Password strength: <strong className="font-semibold text-slate-900">{LABELS[strength.score]}</strong>
          {strength.strongEnough ? '' : ' (not accepted: make it harder to guess)'}
        </p>
        {advice.length > 0 ? (
          <ul className="mt-1 list-disc pl-5">
            {advice.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
