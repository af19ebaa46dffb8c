import type { VERIFICATION_STATUSES } from '../reference';

/** The user as every call returns it (spec section 3). Never carries a password hash or a code. */
export interface UserDto {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  profilePicture: { url: string } | null;
  location: { address: string; state: string };
  account: { number: string; savings: number; checking: number };
  verificationStatus: (typeof VERIFICATION_STATUSES)[number];
  verification: { documentType: string | null; documentFront: { url: string } | null; documentBack: { url: string } | null } | null;
  isAdmin: boolean;
  isBlocked: boolean;
  isAccountDisabled: boolean;
  isEmailConfirmed: boolean;
  createdAt: string;
}
