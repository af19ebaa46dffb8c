import type { UserDto } from '../../shared/contracts/user';
import type { ActorContext } from '../context';
import type { DB } from '../db/database';
import type { SessionUser, User } from '../db/schema';
import { userVerification } from '../kyc/repository';
import { getAccountSummary } from '../ledger/accounts';

export function profilePictureUrl(user: Pick<User, 'id' | 'profile_picture'>): { url: string } | null {
  return user.profile_picture ? { url: `/api/user/profile-picture/${user.id}?v=${encodeURIComponent(user.profile_picture)}` } : null;
}

/** The spec's user object. Balances come from the ledger, in dollars as the API carries them. */
export async function toUserDto(db: DB, user: SessionUser): Promise<UserDto> {
  const account = user.is_admin ? null : await getAccountSummary(db, user.id);
  return {
    _id: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    phone: user.phone,
    profilePicture: profilePictureUrl(user),
    location: { address: user.address, state: user.state },
    account: {
      number: account?.number ?? '',
      savings: (account?.savingsCents ?? 0) / 100,
      checking: (account?.checkingCents ?? 0) / 100,
    },
    verificationStatus: user.verification_status,
    verification: user.is_admin ? null : await userVerification(db, user.id),
    isAdmin: user.is_admin,
    staffRole: user.staff_role,
    isBlocked: user.is_blocked,
    isAccountDisabled: user.is_account_disabled,
    isEmailConfirmed: user.is_email_confirmed,
    createdAt: new Date(user.created_at).toISOString(),
  };
}

/** The signed-in user, as the session found them at the start of the request. */
export function me(ctx: ActorContext): Promise<UserDto> {
  return toUserDto(ctx.db, ctx.actor.user);
}
