import type { NotificationKind } from '../../shared/contracts/notifications';
import type { CustomerAccountKind } from '../../shared/contracts/transactions';
import { formatCents } from '../../shared/money';
import { routes } from '../../shared/routes';

// What each kind says, in the app and by email: the producers give the facts (notify's input),
// the words live here, so every kind reads the same wherever it comes from.

/**
 * notify()'s input: who, which kind, a key unique for this event among that customer's
 * notifications of this kind (a retry with the same key notifies once), and the facts of the kind.
 * `link`: a page of the app it is about, when it is not the kind's usual one.
 */
export type NotifyInput = {
  userId: string;
  key: string;
  link?: string | null;
} & (
  | { kind: 'money_received'; amountCents: number; account: CustomerAccountKind; from: string | null; description?: string | null }
  | { kind: 'money_sent_above'; amountCents: number; account: CustomerAccountKind; to: string | null }
  | { kind: 'balance_below'; account: CustomerAccountKind; balanceBeforeCents: number; balanceAfterCents: number }
  | { kind: 'new_device_sign_in'; device: string; ip: string | null; at: Date }
  | { kind: 'standing_order_failed'; amountCents: number; payee: string; reason: string; dueDate: string }
  | { kind: 'statement_ready'; month: string; account: CustomerAccountKind }
  | { kind: 'payment_request_received'; fromName: string; amountCents: number; note: string | null }
  | { kind: 'payment_request_answered'; payerName: string; amountCents: number; note: string | null; answer: 'paid' | 'declined' }
  | { kind: 'payment_request_cancelled'; fromName: string; amountCents: number; note: string | null }
);

export interface NotificationText {
  title: string;
  body: string;
  link: string | null;
}

const TITLE_LENGTH_MAX = 200;
const BODY_LENGTH_MAX = 1000;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const monthName = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
const dayName = (date: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** The words of one notification; `thresholdCents` is the customer's amount for the threshold kinds. */
export function textOf(input: NotifyInput, thresholdCents: number | null): NotificationText {
  const text = rawTextOf(input, thresholdCents);
  return { title: clip(text.title, TITLE_LENGTH_MAX), body: clip(text.body, BODY_LENGTH_MAX), link: input.link === undefined ? text.link : input.link };
}

function rawTextOf(input: NotifyInput, thresholdCents: number | null): NotificationText {
  const history = routes.accountTransactions.path;
  switch (input.kind) {
    case 'money_received':
      return {
        title: `${formatCents(input.amountCents)} received`,
        body:
          `${formatCents(input.amountCents)} arrived in your ${input.account} account${input.from ? ` from ${input.from}` : ''}.` +
          (input.description ? ` ${input.description}` : ''),
        link: history,
      };
    case 'money_sent_above':
      return {
        title: `${formatCents(input.amountCents)} sent`,
        body:
          `${formatCents(input.amountCents)} left your ${input.account} account${input.to ? ` to ${input.to}` : ''}. ` +
          `You asked to hear about payments above ${formatCents(thresholdCents)}.`,
        link: history,
      };
    case 'balance_below':
      return {
        title: `Your ${input.account} balance is below ${formatCents(thresholdCents)}`,
        body: `Your ${input.account} account balance is now ${formatCents(input.balanceAfterCents)}.`,
        link: history,
      };
    case 'new_device_sign_in':
      return {
        title: `New sign-in from ${input.device}`,
        body:
          `Your account was signed in to from a device we have not seen before (address ${input.ip ?? 'unknown'}). ` +
          'If this was not you, change your password at once and end that session under Security.',
        link: routes.accountSecurity.path,
      };
    case 'standing_order_failed':
      return {
        title: `Standing order to ${input.payee} not paid`,
        body: `Your standing order of ${formatCents(input.amountCents)} to ${input.payee} due on ${dayName(input.dueDate)} was not paid: ${input.reason}`,
        link: null,
      };
    case 'statement_ready':
      return {
        title: `Your ${monthName(input.month)} statement is ready`,
        body: `The statement of your ${input.account} account for ${monthName(input.month)} is ready to download.`,
        link: routes.accountStatements.path,
      };
    case 'payment_request_received':
      return {
        title: `${input.fromName} asks you for ${formatCents(input.amountCents)}`,
        body: `${input.fromName} sent you a payment request for ${formatCents(input.amountCents)}${input.note ? `: "${input.note}"` : '.'}`,
        link: null,
      };
    case 'payment_request_answered':
      return {
        title: `${input.payerName} ${input.answer} your request for ${formatCents(input.amountCents)}`,
        body:
          input.answer === 'paid'
            ? `${input.payerName} paid your request for ${formatCents(input.amountCents)}${input.note ? ` ("${input.note}")` : ''}: the money is in your checking account.`
            : `${input.payerName} declined your request for ${formatCents(input.amountCents)}${input.note ? ` ("${input.note}")` : ''}.`,
        link: null,
      };
    case 'payment_request_cancelled':
      return {
        title: `${input.fromName} cancelled their request for ${formatCents(input.amountCents)}`,
        body: `${input.fromName} cancelled the payment request for ${formatCents(input.amountCents)}${input.note ? ` ("${input.note}")` : ''}: there is nothing to pay.`,
        link: null,
      };
  }
}

/** Every kind of the contract has its facts and words here: a kind added there alone fails the type check. */
type KindsWithoutText = Exclude<NotificationKind, NotifyInput['kind']>;
export const EVERY_KIND_HAS_TEXT: KindsWithoutText extends never ? true : KindsWithoutText = true;
