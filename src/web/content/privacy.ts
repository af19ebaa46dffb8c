import { BANK_NAME } from '../lib/settings';

export const privacy = {
  updated: 'November 2026',
  sections: [
    {
      title: 'Who we are',
      paragraphs: [
        `This policy explains how ${BANK_NAME} ("we", "us") collects, uses and protects personal information when you visit our website, open an account or use internet banking. It also sets out the terms that apply when you use the site.`,
      ],
    },
    {
      title: 'What we collect',
      paragraphs: [
        'Information you give us: your name, contact details, date of birth, address, occupation, income range, identity documents and anything you write to us through the contact form.',
        'Information created when you bank with us: account numbers, balances, transactions, loan applications and the records of how and when you signed in.',
      ],
    },
    {
      title: 'How we use it',
      paragraphs: [
        'To open and run your accounts, verify your identity, prevent fraud and money laundering, answer your messages and meet our legal and regulatory duties.',
        'We do not sell your personal information, and we do not use it for advertising by other companies.',
      ],
    },
    {
      title: 'Cookies',
      paragraphs: [
        'We use one essential cookie to keep you signed in. It is sent only to this site, cannot be read by page scripts, and ends when you sign out. We use no advertising or tracking cookies, and the site loads nothing from other hosts.',
      ],
    },
    {
      title: 'Children',
      paragraphs: [
        'Our website and services are not directed at children under 13, and we do not knowingly collect personal information from them. If you believe a child under 13 has given us information, contact us and we will delete it.',
      ],
    },
    {
      title: 'How long we keep it and how we protect it',
      paragraphs: [
        'We keep account and transaction records for as long as the law requires after an account closes; when we close an account we remove the personal details we no longer need, while the ledger entries stay as the law requires.',
        'Passwords are stored only as strong one-way hashes, payments need a one-time code sent to you, and every staff action on an account is recorded in an audit log.',
      ],
    },
    {
      title: 'Your rights',
      paragraphs: [
        'You can ask for a copy of your information, ask us to correct it, or ask us to delete what we are not required to keep. Use the contact page and we will answer within 30 days.',
      ],
    },
    {
      title: 'Terms of use',
      paragraphs: [
        'The information on this website describes our products in general terms and is not personal financial advice. Rates, fees and terms shown are examples and may change; the terms you receive when opening a product are the ones that apply.',
        'You must keep your password and one-time codes to yourself. We will never ask for them by phone, email or message.',
      ],
    },
  ],
};
