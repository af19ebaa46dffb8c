import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { ProfileUpdateRequest } from '../../../shared/contracts/profile';
import type { UserDto } from '../../../shared/contracts/user';
import { api } from '../../lib/api';
import { rememberUser } from '../../lib/query';

// The profile reads the signed-in user (lib/query's session query); these calls change it.

export interface ProfileUpdateAnswer {
  user: UserDto;
  message: string;
  emailChangePending: boolean;
}

export async function updateProfile(body: ProfileUpdateRequest): Promise<ProfileUpdateAnswer> {
  // Beside the user, the answer says whether a code went to a new address (the email changes when it comes back).
  const answer = (await api.patch<UserDto>('/user/profile', body)) as { data: UserDto; message?: string; emailChangePending?: boolean };
  rememberUser(answer.data);
  return { user: answer.data, message: answer.message ?? 'Profile updated successfully', emailChangePending: answer.emailChangePending === true };
}

export async function uploadProfilePicture(file: File): Promise<UserDto> {
  const form = new FormData();
  form.append('profilePicture', file);
  const { data } = await api.patch<UserDto>('/user/profile-picture', form);
  rememberUser(data);
  return data;
}

/** With a second factor on the account, the change carries a fresh one: a code, or a passkey's answer (ADR 011). */
export async function changePassword(body: {
  oldPassword: string;
  newPassword: string;
  secondFactorCode?: string;
  secondFactorPasskey?: AuthenticationResponseJSON;
}): Promise<string> {
  const answer = await api.post<null>('/auth/change-password', body);
  return answer.message ?? 'Password updated successfully';
}
