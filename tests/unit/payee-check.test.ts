import { describe, expect, it } from 'vitest';
import { checkPayeeName, nameWords } from '../../src/server/transactions/payee-check';

const jamie = { firstName: 'Jamie', lastName: 'Lee' };
const siobhan = { firstName: 'Siobhán', lastName: "O'Sullivan-Byrne" };
const alexandra = { firstName: 'Alexandra Maria', lastName: 'Featherstonehaugh' };

describe('confirmation of payee: the name typed against the account holder', () => {
  it('is a match for the same words, whatever their case, order, accents, punctuation or title', () => {
    for (const typed of ['Jamie Lee', 'jamie lee', '  JAMIE   LEE ', 'Lee, Jamie', 'Ms Jamie Lee', 'Dr. Jamie Lee'])
      expect(checkPayeeName(typed, jamie), typed).toEqual({ result: 'match' });
    expect(checkPayeeName('Siobhan OSullivan Byrne', siobhan)).toEqual({ result: 'match' });
    expect(checkPayeeName("siobhán o'sullivan-byrne", siobhan)).toEqual({ result: 'match' });
  });

  it('is a close match, naming the holder, for initials, a middle name more or less, or a typo', () => {
    const close = (typed: string, holder: { firstName: string; lastName: string }) => expect(checkPayeeName(typed, holder), typed);
    close('J Lee', jamie).toEqual({ result: 'close_match', accountName: 'Jamie Lee' });
    close('J. Lee', jamie).toEqual({ result: 'close_match', accountName: 'Jamie Lee' });
    close('Jamie A Lee', jamie).toEqual({ result: 'close_match', accountName: 'Jamie Lee' });
    close('Jamie Lea', jamie).toEqual({ result: 'close_match', accountName: 'Jamie Lee' });
    close('Jaime Lee', jamie).toEqual({ result: 'close_match', accountName: 'Jamie Lee' });
    close('A M Featherstonehaugh', alexandra).toEqual({ result: 'close_match', accountName: 'Alexandra Maria Featherstonehaugh' });
    close('Alexandra Featherstonehaugh', alexandra).toEqual({ result: 'close_match', accountName: 'Alexandra Maria Featherstonehaugh' });
    close('Alexandra Maria Featherstonhaugh', alexandra).toEqual({ result: 'close_match', accountName: 'Alexandra Maria Featherstonehaugh' });
  });

  it('is no match, without the holder, for another person or a name too far from it', () => {
    for (const typed of ['Alex Morgan', 'Jamie', 'Lee', 'J', 'Jim Lee', 'Jamie Leeson', 'Jamie Smith', 'K Lee', '!!!', 'Mr'])
      expect(checkPayeeName(typed, jamie), typed).toEqual({ result: 'no_match' });
    // Two typos in a short name are another name.
    expect(checkPayeeName('Jaxie Lex', jamie)).toEqual({ result: 'no_match' });
  });

  it('reads a name as its words: no accents, no apostrophes, no titles', () => {
    expect(nameWords("Dr Siobhán O'Sullivan-Byrne")).toEqual(['siobhan', 'osullivan', 'byrne']);
  });
});
