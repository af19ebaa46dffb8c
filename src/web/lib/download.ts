// Files from the API (statements, exports): fetched here rather than followed as links, so a
// refusal (a month with no statement, a range too long) is shown on the page as a message instead
// of replacing the page with the error's JSON; the bytes are then saved under the server's name.
import { ApiError, FALLBACK_ERROR } from './api';
import { noteSessionIdle } from './session-idle';

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** GETs `/api${url}` with the session cookie; a failure throws the server's message. */
export async function fetchFile(url: string): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(`/api${url}`, { credentials: 'same-origin' });
  } catch {
    throw new ApiError('We could not reach the bank. Check your connection and try again.', 0, 'network');
  }
  noteSessionIdle(response.headers);
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as { message?: string; code?: string; fields?: Record<string, string> };
    throw new ApiError(payload.message || FALLBACK_ERROR, response.status, payload.code, payload.fields);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await response.blob(), fileName };
}

/** Hands the file to the browser's downloads, as a link with `download` would. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; give slow browsers a while before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
