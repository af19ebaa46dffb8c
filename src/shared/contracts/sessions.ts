import { z } from 'zod';
import { envelope, ZTimestamp, ZUuid } from './common';

// GET /api/auth/sessions, DELETE /api/auth/sessions/{id}, POST /api/auth/sessions/revoke-others,
// and the back office's view of a customer's sessions.

export const SESSION_ENDED_MESSAGE = 'Session ended';
export const OTHER_SESSIONS_ENDED_MESSAGE = 'Signed out everywhere else';
export const SESSION_NOT_FOUND_MESSAGE = 'Session not found';

/** One live session: where and when it signed in, and when it was last used. */
export const ZSession = z
  .object({
    id: z.string(),
    /** The session this request is made with. */
    current: z.boolean().describe('The session this request is made with.'),
    /** Read from the browser's user agent: "Chrome on Windows". */
    device: z.string().describe("Read from the browser's user agent, e.g. Chrome on Windows."),
    /** The network address it signed in from. */
    ipAddress: z.string().nullable().describe('The network address it signed in from.'),
    createdAt: ZTimestamp.describe('When it signed in.'),
    /** Updated at most once a minute, so a session seen "now" may have been used up to a minute ago. */
    lastSeenAt: ZTimestamp.describe('When it was last used, to within a minute.'),
  })
  .meta({ id: 'Session' });
export type SessionDto = z.infer<typeof ZSession>;

export const ZSessionListAnswer = envelope(z.array(ZSession));
export const ZSessionEndedAnswer = envelope(z.object({ ended: z.number().int().describe('How many sessions ended.') }));
export type SessionsEnded = { ended: number };

/** `/user/admin/{id}/sessions/{sessionId}`: a malformed id answers 404 like every path id. */
export const ZUserSessionParams = z.object({
  id: ZUuid.describe("The user's _id."),
  sessionId: ZUuid.describe("The session's id, as the user's sessions list it."),
});
