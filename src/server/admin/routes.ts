import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ZAdminUserListQuery, ZAdminUserUpdate, ZAuditQuery } from '../../shared/contracts/admin';
import { ZEmail } from '../../shared/contracts/common';
import { requireAdmin } from '../auth/sessions';
import { parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';
import { auditFilters, listAudit } from './audit-log';
import { getDashboard } from './dashboard';
import { getLedgerOverview, runLedgerVerification } from './ledger';
import { assertUuid, deleteOrCloseUser, getUserByEmail, getUserById, listUsers, updateUser } from './users';

const ZIdParams = z.object({ id: z.string().max(64) });
const ZEmailParams = z.object({ email: ZEmail });

/** The back office: every route is for bank staff only (401 without a session, 403 for customers). */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const staffOnly = { preHandler: requireAdmin };

  app.get('/user/admin', staffOnly, async (request) => ({ data: await listUsers(app.db, parseInput(ZAdminUserListQuery, request.query)) }));

  app.get('/user/admin/email/:email', staffOnly, async (request) => {
    const { email } = parseInput(ZEmailParams, request.params);
    return { data: await getUserByEmail(app.db, email) };
  });

  app.get('/user/admin/:id', staffOnly, async (request) => {
    const { id } = parseInput(ZIdParams, request.params);
    assertUuid(id);
    return { data: await getUserById(app.db, id) };
  });

  app.put('/user/admin/:id', staffOnly, async (request) => {
    const { id } = parseInput(ZIdParams, request.params);
    assertUuid(id);
    const input = parseInput(ZAdminUserUpdate, request.body);
    return { data: await updateUser(app, request, id, input), message: 'User updated successfully' };
  });

  app.delete('/user/admin/:id', staffOnly, async (request) => {
    const { id } = parseInput(ZIdParams, request.params);
    assertUuid(id);
    const result = await deleteOrCloseUser(app, request, id);
    return { data: result, message: result.message };
  });

  app.get('/admin/audit', staffOnly, async (request) => ({ data: await listAudit(app.db, parseInput(ZAuditQuery, request.query)) }));
  app.get('/admin/audit/filters', staffOnly, async () => ({ data: await auditFilters(app.db) }));

  app.get('/admin/dashboard', staffOnly, async () => ({ data: await getDashboard(app.db) }));

  // The general ledger, and the same verification as `npm run ledger:verify` (it reads every entry:
  // a few per minute at most).
  app.get('/admin/ledger', staffOnly, async () => ({ data: await getLedgerOverview(app.db) }));
  app.post('/admin/ledger/verify', { ...staffOnly, config: perMinute(6) }, async (request) => {
    const verification = await runLedgerVerification(app.db, request);
    return { data: verification, message: verification.message };
  });
}
