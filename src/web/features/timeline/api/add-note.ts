import { NOTE_ADDED_MESSAGE, type NoteDto, type NoteRequest } from '../../../../shared/contracts/timeline';
import { api } from '../../../lib/api';

/** POST /user/admin/{id}/notes: a staff note on the customer's page (append-only, audited). Answers the message to show. */
export async function addNote(userId: string, body: NoteRequest): Promise<{ note: NoteDto; message: string }> {
  const answer = await api.post<NoteDto>(`/user/admin/${encodeURIComponent(userId)}/notes`, body);
  return { note: answer.data, message: answer.message ?? NOTE_ADDED_MESSAGE };
}
