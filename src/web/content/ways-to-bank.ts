import { BANK_NAME } from '../lib/settings';
import type { AppPath } from '../paths';

export const waysToBank: {
  summary: string;
  steps: Array<{ title: string; text: string; to: AppPath; action: string }>;
  channels: Array<{ title: string; text: string }>;
} = {
  summary: `Open an account online, activate it with the code ${BANK_NAME} sends you, and bank from any browser.`,
  steps: [
    {
      title: 'Create your account',
      text: 'Fill in the sign-up form with your details and choose the account type you want: savings, checking or joint. It takes about five minutes.',
      to: '/signup',
      action: 'Create Account',
    },
    {
      title: 'Activate your account',
      text: 'We email you a six-digit activation code. Enter it after your first sign-in to confirm your email address and activate the account. The code is free and expires after 10 minutes; ask for a new one if it does.',
      to: '/signup',
      action: 'Activate Account',
    },
    {
      title: 'Log in and bank',
      text: 'Sign in to internet banking to see your balances and history, move money between your accounts, send transfers, apply for loans and request a card.',
      to: '/signin',
      action: 'Login Account',
    },
  ],
  channels: [
    { title: 'Internet banking', text: 'Every service, in any modern browser on your phone, tablet or computer.' },
    { title: 'Email and contact form', text: 'Write to us any time from the contact page; we answer within one business day.' },
    { title: 'Secure by design', text: 'Every payment you send needs a one-time code we send to you alone, and it is always free.' },
  ],
};
