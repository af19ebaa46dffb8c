import type { PayeeCheck } from '../../shared/contracts/payment-approval';

/**
 * Confirmation of payee (ADR 029): the recipient name a customer typed against the holder of the
 * account at this bank. A match is the same words (in any order, ignoring case, accents,
 * punctuation and a title); a close match is one a person would recognise as the same payee
 * typed differently (initials for the first names, one more or one fewer middle name, a typo or
 * two); anything else is no match. Only a close match names the holder: it lets a customer fix a
 * slip without telling whoever holds an account number the name behind it.
 */

const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'dame']);

/** The words of a name: lower case, accents and punctuation gone ("O'Brien" is "obrien"), titles dropped. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !TITLES.has(word));
}

/** Edits (insert, delete, substitute, swap two neighbours) from one text to the other, up to `limit` + 1. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Typos allowed in a name of this many letters: none under 4, one up to 9, two from 10. */
const typosAllowed = (letters: number) => (letters < 4 ? 0 : letters < 10 ? 1 : 2);

/** The first names given as initials or in full ("J", "J A", "Jamie A" for "Jamie Alex"), the last name the same. */
function sameWithInitials(given: string[], holder: string[]): boolean {
  if (given.length !== holder.length || given.length < 2) return false;
  if (given[given.length - 1] !== holder[holder.length - 1]) return false;
  return given.slice(0, -1).every((word, index) => word === holder[index] || (word.length === 1 && holder[index]!.startsWith(word)));
}

/** One side has one more word (a middle name) and is otherwise the other, in order, first and last name kept. */
function oneMiddleNameApart(given: string[], holder: string[]): boolean {
  const [longer, shorter] = given.length > holder.length ? [given, holder] : [holder, given];
  if (longer.length !== shorter.length + 1 || shorter.length < 2) return false;
  if (longer[0] !== shorter[0] || longer[longer.length - 1] !== shorter[shorter.length - 1]) return false;
  return longer.some(
    (_, skipped) => skipped > 0 && skipped < longer.length - 1 && longer.filter((__, index) => index !== skipped).join(' ') === shorter.join(' '),
  );
}

export function checkPayeeName(given: string, holder: { firstName: string; lastName: string }): PayeeCheck {
  const accountName = `${holder.firstName} ${holder.lastName}`.trim();
  const typed = nameWords(given);
  const held = nameWords(accountName);
  if (typed.length === 0 || held.length === 0) return { result: 'no_match' };
  if ([...typed].sort().join(' ') === [...held].sort().join(' ')) return { result: 'match' };
  const typedText = typed.join(' ');
  const heldText = held.join(' ');
  const close =
    sameWithInitials(typed, held) ||
    oneMiddleNameApart(typed, held) ||
    editDistance(typedText, heldText, 2) <= typosAllowed(Math.min(typedText.length, heldText.length));
  return close ? { result: 'close_match', accountName } : { result: 'no_match' };
}
