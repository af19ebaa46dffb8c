import { useRef, type ChangeEvent } from 'react';
import type { UserDto } from '../../../../shared/contracts/user';
import { UPLOAD_BYTES_MAX } from '../../../../shared/limits';
import { Avatar } from '../../../components/layout/avatar';
import { Alert } from '../../../components/ui/alert';
import { fileInputClass } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { uploadProfilePicture } from '../api';

/** Choosing a file uploads it; the server checks it is an image by its bytes and re-encodes it. */
export function ProfilePictureForm({ user }: { user: UserDto }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useAction(uploadProfilePicture, { successToast: 'Profile picture updated' });
  const { busy, error } = upload;

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    upload.reset();
    if (!file) return;
    if (file.size > UPLOAD_BYTES_MAX) {
      upload.fail({ message: 'Each file must be at most 5 MB.' });
      event.target.value = '';
      return;
    }
    await upload.run(file);
    if (input.current) input.current.value = '';
  }

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar firstName={user.firstName} lastName={user.lastName} url={user.profilePicture?.url} size={72} />
      <div className="space-y-2">
        <label htmlFor="profile-picture" className="block text-sm font-medium text-slate-800">
          Profile picture
        </label>
        <input
          ref={input}
          id="profile-picture"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          onChange={onChange}
          disabled={busy}
          aria-describedby="profile-picture-hint"
          className={fileInputClass}
        />
        <p id="profile-picture-hint" className="text-sm text-slate-700">
          {busy ? 'Uploading...' : 'JPEG, PNG or WebP, at most 5 MB.'}
        </p>
        {error ? <Alert tone="error">{error.message}</Alert> : null}
      </div>
    </div>
  );
}
