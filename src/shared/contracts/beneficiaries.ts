import { z } from 'zod';
import { NAME_LENGTH_MAX } from '../limits';
import { controlCharactersMessage, envelope, requiredText, SINGLE_LINE_TEXT, ZTimestamp } from './common';

export const BENEFICIARIES_MAX = 100;
export const NO_BENEFICIARIES_MESSAGE = 'You have no beneficiaries yet.';

/** ABA routing number: 9 digits with the 3-7-1 checksum (the same rule the transfer form applies). */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return weights.reduce((sum, weight, index) => sum + weight * Number(value[index]), 0) % 10 === 0;
}

const optionalText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage(label))
    .optional()
    .transform((value) => value ?? '');

/**
 * POST /api/beneficiaries, as the transfer page sends it after a completed transfer. A payee at
 * this bank needs no routing number or bank name; one at another bank has both.
 */
export const ZBeneficiaryRequest = z.object({
  name: requiredText('Name', NAME_LENGTH_MAX).describe("The payee's name."),
  accountNumber: z
    .string({ message: 'Account number is required' })
    .trim()
    .min(1, 'Account number is required')
    .regex(/^[0-9]{4,17}$/, 'Account number must be 4 to 17 digits')
    .describe("The payee's account number, 4 to 17 digits."),
  routingNumber: optionalText('Routing number', 9)
    .refine((value) => value === '' || isAbaRoutingNumber(value), 'Routing number must be a valid 9-digit ABA number')
    .describe("Another bank's 9-digit ABA routing number; absent for a payee at this bank."),
  bankName: optionalText('Bank name', NAME_LENGTH_MAX).describe("Another bank's name; absent for a payee at this bank."),
});
export type BeneficiaryRequest = z.input<typeof ZBeneficiaryRequest>;

export const ZBeneficiary = z.object({
  _id: z.string(),
  name: z.string(),
  accountNumber: z.string(),
  /** '' for a payee at this bank. */
  routingNumber: z.string().describe("'' for a payee at this bank."),
  bankName: z.string().describe("'' for a payee at this bank."),
  createdAt: ZTimestamp,
});
export type BeneficiaryDto = z.infer<typeof ZBeneficiary>;

export const ZBeneficiaryAnswer = envelope(ZBeneficiary);
export const ZBeneficiaryList = envelope(z.array(ZBeneficiary));
export const ZBeneficiaryRemoved = envelope(z.object({ _id: z.string() }));

/** Where a payee's "Use" action leads: the transfer form reads these query parameters. */
export function transferLinkFor(beneficiary: Pick<BeneficiaryDto, 'name' | 'accountNumber' | 'routingNumber' | 'bankName'>): string {
  const query = new URLSearchParams({
    accountNumber: beneficiary.accountNumber,
    routingNumber: beneficiary.routingNumber,
    bankName: beneficiary.bankName,
    to: beneficiary.name,
  });
  return `/account/transfer?${query.toString()}`;
}
