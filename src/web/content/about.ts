import { BANK_NAME } from '../lib/settings';
import { figures } from './figures';

const a = figures.about;

export const about = {
  summary: `Since ${a.founded}, ${BANK_NAME} has helped people and businesses save, borrow and invest, with every cent accounted for.`,
  story: [
    `${BANK_NAME} was founded in ${a.founded} with a simple idea: banking should be clear about what it costs and honest about risk. Today we serve customers in over ${a.countries.replace('+', '')} countries through internet banking, and we still explain every product in plain words.`,
    'We keep a complete, append-only record of every movement of money, so a balance can always be traced back to the entries that made it.',
  ],
  facts: [
    { figure: String(a.founded), label: 'Founded' },
    { figure: a.countries, label: 'Countries served' },
    { figure: a.charitableContributions, label: 'Given to charity each year' },
    { figure: a.volunteerHours, label: 'Volunteer hours' },
    { figure: a.communityPartnerships, label: 'Community partnerships' },
  ],
  values: [
    { title: 'Integrity', text: 'We say what a product costs and what can go wrong, before you sign.' },
    { title: 'Client Focus', text: 'We design around what customers need, not around what is easy for us to sell.' },
    { title: 'Innovation', text: 'We use technology to make banking simpler and safer, never to hide fees.' },
    { title: 'Responsibility', text: 'We lend with care, protect your data and give back to the communities we serve.' },
  ],
  mission: 'To give people and businesses banking they can understand and trust: clear prices, safe money and help when they need it.',
  vision: 'A bank whose customers never have to wonder where their money is or what it costs them.',
  leadership: [
    `${BANK_NAME} is led by an executive team with backgrounds in retail banking, risk management and software engineering, overseen by an independent board.`,
    'Our leaders are measured on customer outcomes and the safety of deposits, not on product sales, and the board reviews our lending and investment risk every quarter.',
  ],
};
