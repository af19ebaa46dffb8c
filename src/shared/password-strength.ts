import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { PASSWORD_SCORE_MIN } from './limits';

// zxcvbn-ts with its common and English packs: the server decides with it (auth/passwords.ts),
// and the web forms show the same estimate as the customer types. The dictionaries weigh about a
// megabyte, so the web app imports this module only on demand (a chunk of its own, loaded after
// the first keystroke in a new-password field), never from a page's entry.

export interface PasswordStrength {
  /** 0 (guessed at once) to 4 (very hard to guess). */
  score: 0 | 1 | 2 | 3 | 4;
  /** Whether the server accepts it as far as guessability goes (the breached list is checked there too). */
  strongEnough: boolean;
  /** What makes it weak, when zxcvbn can say. */
  warning: string | null;
  suggestions: string[];
}

let factory: ZxcvbnFactory | undefined;

const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
  }));

/**
 * How guessable a password is. `userInputs` are words an attacker would try first for this
 * person: their names, their email, the bank's name.
 */
export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  const inputs = userInputs.flatMap((input) => input.toLowerCase().split(/[^a-z0-9]+/)).filter((word) => word.length >= 3);
  const result = estimator().check(password, inputs);
  return {
    score: result.score,
    strongEnough: result.score >= PASSWORD_SCORE_MIN,
    warning: result.feedback.warning || null,
    suggestions: result.feedback.suggestions,
  };
}
