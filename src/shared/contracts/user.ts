import { z } from 'zod';
import { VERIFICATION_STATUSES } from '../reference';
import { STAFF_ROLES } from '../staff-roles';
import { envelope, ZTimestamp } from './common';

const ZFileLink = z.object({ url: z.string().describe('Where to download it (signed in).') });

/** The user as every call returns it (spec section 3). Never carries a password hash or a code. */
export const ZUser = z
  .object({
    _id: z.string().describe("The user's id."),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string().describe('With its country code, e.g. +12025550101.'),
    profilePicture: ZFileLink.nullable(),
    location: z.object({ address: z.string(), state: z.string() }),
    /** Balances in dollars; staff have no accounts (number ''). */
    account: z
      .object({ number: z.string(), savings: z.number(), checking: z.number() })
      .describe("The 10-digit account number and both balances in dollars; staff have none (number '', balances 0)."),
    verificationStatus: z.enum(VERIFICATION_STATUSES).describe('Identity (KYC): awaiting documents, pending review, verified, or failed.'),
    verification: z
      .object({ documentType: z.string().nullable(), documentFront: ZFileLink.nullable(), documentBack: ZFileLink.nullable() })
      .nullable()
      .describe('The latest identity documents sent (front: the document, back: the proof of address); null before any, and for staff.'),
    isAdmin: z.boolean().describe('True for staff.'),
    /** The staff member's role (ADR 022); null for customers. */
    staffRole: z.enum(STAFF_ROLES).nullable().describe("A staff member's role (support, compliance, finance, admin); null for customers."),
    isBlocked: z.boolean().describe('True when staff blocked sending money.'),
    isAccountDisabled: z.boolean().describe('True when staff disabled the sign-in.'),
    isEmailConfirmed: z.boolean().describe('True once the emailed code confirmed the address.'),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'User' });
export type UserDto = z.infer<typeof ZUser>;

export const ZUserAnswer = envelope(ZUser);
