import type { ProfileUpdateRequest } from '../../../shared/contracts/profile';
import type { UserDto } from '../../../shared/contracts/user';
import { api } from '../../lib/api';
import { rememberUpdatedUser } from '../../lib/current-user';

export interface ProfileUpdateAnswer {
  user: UserDto;
  message: string;
  emailChangePending: boolean;
}

export async function updateProfile(body: ProfileUpdateRequest): Promise<ProfileUpdateAnswer> {
  const answer = (await api.patch<UserDto>('/user/profile', body)) as { data: UserDto; message?: string; emailChangePending?: boolean };
  rememberUpdatedUser(answer.data);
  return { user: answer.data, message: answer.message ?? 'Profile updated successfully', emailChangePending: answer.emailChangePending === true };
}

export async function uploadProfilePicture(file: File): Promise<UserDto> {
  const form = new FormData();
  form.append('profilePicture', file);
  const { data } = await api.patch<UserDto>('/user/profile-picture', form);
  rememberUpdatedUser(data);
  return data;
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<string> {
  const answer = await api.post<null>('/auth/change-password', { oldPassword, newPassword });
  return answer.message ?? 'Password updated successfully';
}
