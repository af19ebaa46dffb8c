import { z } from 'zod';
import { VERIFICATION_STATUSES } from '../reference';
import { STAFF_ROLES } from '../staff-roles';
import { envelope, ZTimestamp } from './common';

const ZFileLink = z.object({ url: z.string() });

/** The user as every call returns it (spec section 3). Never carries a password hash or a code. */
export const ZUser = z
  .object({
    _id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    profilePicture: ZFileLink.nullable(),
    location: z.object({ address: z.string(), state: z.string() }),
    /** Balances in dollars; staff have no accounts (number ''). */
    account: z.object({ number: z.string(), savings: z.number(), checking: z.number() }),
    verificationStatus: z.enum(VERIFICATION_STATUSES),
    verification: z.object({ documentType: z.string().nullable(), documentFront: ZFileLink.nullable(), documentBack: ZFileLink.nullable() }).nullable(),
    isAdmin: z.boolean(),
    /** The staff member's role (ADR 022); null for customers. */
    staffRole: z.enum(STAFF_ROLES).nullable(),
    isBlocked: z.boolean(),
    isAccountDisabled: z.boolean(),
    isEmailConfirmed: z.boolean(),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'User' });
export type UserDto = z.infer<typeof ZUser>;

export const ZUserAnswer = envelope(ZUser);
