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
    current: z.boolean(),
    /** Read from the browser's user agent: "Chrome on Windows". */
    device: z.string(),
    /** The network address it signed in from. */
    ipAddress: z.string().nullable(),
    createdAt: ZTimestamp,
    /** Updated at most once a minute, so a session seen "now" may have been used up to a minute ago. */
    lastSeenAt: ZTimestamp,
  })
  .meta({ id: 'Session' });
export type SessionDto = z.infer<typeof ZSession>;

export const ZSessionListAnswer = envelope(z.array(ZSession));
export const ZSessionEndedAnswer = envelope(z.object({ ended: z.number().int() }));
export type SessionsEnded = { ended: number };

/** `/user/admin/{id}/sessions/{sessionId}`: a malformed id answers 404 like every path id. */
export const ZUserSessionParams = z.object({ id: ZUuid, sessionId: ZUuid });
