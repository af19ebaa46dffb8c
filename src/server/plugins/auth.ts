import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZApiError } from '../../shared/contracts/common';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_SECONDS_HEADER } from '../../shared/limits';
import { newToken } from '../auth/crypto';
import { resolveSession, type SessionOrigin } from '../auth/sessions';
import type { Config } from '../config';
import type { Actor, AppContext, ActorContext, ServiceContext } from '../context';
import type { SessionUser } from '../db/schema';
import { isDatabaseUnavailable } from '../db/errors';
import { SECOND_FACTOR_REQUIRED_MESSAGE } from '../../shared/contracts/factors';
import { AppError, forbidden, unauthorized } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { STAFF_ROLE_LABELS, STAFF_ROLES, STAFF_SUSPENDED_MESSAGE, type StaffRole } from '../../shared/staff-roles';

/**
 * Who may call a route, declared on every /api route as `config: { access }`:
 * `public` anyone; `user` any signed-in user (an unconfirmed customer included, to verify);
 * `customer` a signed-in customer whose email is confirmed; `staff` bank staff.
 */
export type Access = 'public' | 'user' | 'customer' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The staff roles that may call a `staff` route (ADR 022), `admin` always among them: every
     * staff route must declare them (start-up fails otherwise), and no other route may.
     */
    staffRoles?: readonly StaffRole[];
    /**
     * Open to a staff member who has no second factor yet (their session can only enrol one,
     * ADR 011): the calls that set one up and say who is signed in. Every other signed-in route
     * answers them 403 second_factor_required.
     */
    enrolment?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, set by the session hook; null when the request carries no valid session. */
    user: SessionUser | null;
    sessionId: string | null;
    /** The session is a staff member's without a second factor: it may only enrol one. */
    enrolOnly: boolean;
  }
}

export const CUSTOMERS_ONLY_MESSAGE = 'This is for customers. Admins use the back office.';
export const VERIFY_EMAIL_FIRST_MESSAGE = 'Please verify your email address first.';
export const STAFF_ONLY_MESSAGE = 'Only bank staff can do this.';
export const wrongRoleMessage = (role: StaffRole | null, roles: readonly StaffRole[]) =>
  `Your role (${role ? STAFF_ROLE_LABELS[role] : 'none'}) cannot do this: it needs ${roles.map((each) => STAFF_ROLE_LABELS[each]).join(' or ')}.`;

/**
 * The session's cookie: HttpOnly, SameSite=Strict, Secure when PUBLIC_URL is https (so not with
 * ALLOW_HTTP=true on a plain-http private network: a Secure cookie would never come back).
 */
export const SESSION_COOKIE = 'll_session';

export function setSessionCookie(reply: FastifyReply, token: string, config: Pick<Config, 'publicUrl'>): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.publicUrl.startsWith('https://'),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
  const deviceToken = reply.request.deviceToken;
  if (deviceToken) {
    reply.setCookie(DEVICE_COOKIE, deviceToken, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'strict',
      secure: config.publicUrl.startsWith('https://'),
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
  }
}

/**
 * The device cookie: a random token that tells a browser the customer signed in from before from
 * a new one (auth/sessions.ts). HttpOnly and long-lived; it outlives sign-out on purpose.
 */
export const DEVICE_COOKIE = 'll_device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{40,100}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The device token a sign-in on this request used (from the cookie, or new): setSessionCookie keeps it in the browser. */
    deviceToken?: string;
  }
}

/** Where a sign-in comes from, with the browser's device token (a new one when it has none). */
export function sessionOriginOf(request: FastifyRequest): SessionOrigin {
  const sent = request.cookies?.[DEVICE_COOKIE];
  request.deviceToken = sent && DEVICE_TOKEN.test(sent) ? sent : newToken();
  return { ...originOf(request), deviceToken: request.deviceToken };
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The security requirement the OpenAPI document shows for a signed-in route: the cookie or a bearer token. */
export const SIGNED_IN_SECURITY: Array<Record<string, string[]>> = [{ cookie: [] }, { bearer: [] }];

function tokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return request.cookies?.[SESSION_COOKIE] ?? null;
}

/**
 * Throws unless the request's user may use a route of this access: a staff route also needs an
 * active staff member whose role the route admits (a staff route with no roles admits nobody).
 */
export function checkAccess(access: Access, user: SessionUser | null, staffRoles: readonly StaffRole[] = []): void {
  if (access === 'public') return;
  if (!user) throw unauthorized();
  if (access === 'staff') {
    if (!user.is_admin) throw forbidden(STAFF_ONLY_MESSAGE);
    if (user.staff_status !== 'active') throw forbidden(STAFF_SUSPENDED_MESSAGE);
    if (!user.staff_role || !staffRoles.includes(user.staff_role)) throw forbidden(wrongRoleMessage(user.staff_role, staffRoles));
  }
  if (access === 'customer') {
    if (user.is_admin) throw forbidden(CUSTOMERS_ONLY_MESSAGE);
    if (!user.is_email_confirmed) throw new AppError('forbidden', VERIFY_EMAIL_FIRST_MESSAGE);
  }
}

/**
 * The /api scope's sign-in: every request's session is resolved once (cookie or Bearer), then the
 * route's declared access is enforced before its body is even validated. A route that declares no
 * access (or no response schema) fails at start-up, so none can be left open or undescribed by
 * accident. The declaration also becomes the route's security in the OpenAPI document, and every
 * route documents the error shape.
 */
export function registerAuth(api: FastifyInstance, context: AppContext): void {
  api.decorateRequest('user', null);
  api.decorateRequest('sessionId', null);
  api.decorateRequest('enrolOnly', false);
  api.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`${String(route.method)} ${route.url} declares no access (config.access)`);
    if (!route.schema?.response) throw new Error(`${String(route.method)} ${route.url} declares no response schema`);
    assertStaffRolesDeclared(`${String(route.method)} ${route.url}`, access, route.config?.staffRoles);
    route.schema.security = access === 'public' ? [] : SIGNED_IN_SECURITY;
    route.schema.response = { '4xx': ZApiError, '5xx': ZApiError, ...(route.schema.response as object) };
  });
  api.addHook('onRequest', async (request, reply) => {
    const { access, enrolment, staffRoles } = request.routeOptions.config;
    const token = tokenFrom(request);
    if (token) {
      // A public route answers without its session when the database cannot say whose it is: the
      // live probe still answers, the ready probe says unavailable (the web app's recheck sends its
      // cookie), the OpenAPI document is served. A signed-in route answers the database's 503.
      const session = await resolveSession(context, token).catch((error: unknown) => {
        if (access === 'public' && isDatabaseUnavailable(error)) return null;
        throw error;
      });
      if (session) {
        request.user = session.user;
        request.sessionId = session.id;
        request.enrolOnly = session.enrolOnly;
        // The web app warns a minute before the idle timeout: it learns the time left from each answer.
        reply.header(SESSION_IDLE_SECONDS_HEADER, String(session.idleSecondsLeft));
      }
    }
    // A staff member without a second factor reaches nothing signed-in but enrolment (ADR 011).
    if (access && access !== 'public' && request.enrolOnly && !enrolment) {
      throw new AppError('second_factor_required', SECOND_FACTOR_REQUIRED_MESSAGE);
    }
    if (access) checkAccess(access, request.user, staffRoles);
  });
}

/**
 * A staff route names the roles that may call it, admin among them (an admin may do everything),
 * and only staff routes name roles: a route added without them stops the app from starting.
 */
export function assertStaffRolesDeclared(route: string, access: Access, staffRoles: readonly StaffRole[] | undefined): void {
  if (access !== 'staff') {
    if (staffRoles) throw new Error(`${route} is not a staff route but declares staff roles`);
    return;
  }
  if (!staffRoles || staffRoles.length === 0) throw new Error(`${route} is a staff route that declares no staff roles (config.staffRoles)`);
  for (const role of staffRoles) if (!STAFF_ROLES.includes(role)) throw new Error(`${route} declares an unknown staff role: ${String(role)}`);
  if (!staffRoles.includes('admin')) throw new Error(`${route} leaves out the admin role (admins may do everything)`);
}

/** Where a request comes from (a new session and the audit log record it). */
export function originOf(request: FastifyRequest): Pick<Actor, 'ip' | 'userAgent'> {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent']?.slice(0, 300) ?? null };
}

/** The acting user of a request behind a sign-in (user, customer or staff access). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw unauthorized();
  return { user: request.user, sessionId: request.sessionId, ...originOf(request) };
}

/** The service context of a signed-in request; what services log carries the request id. */
export function contextOf(request: FastifyRequest, context: AppContext): ActorContext {
  return { ...context, actor: actorOf(request), log: request.log as Logger };
}

/** The service context of any request (the actor is null when signed out). */
export function publicContextOf(request: FastifyRequest, context: AppContext): ServiceContext {
  return { ...context, actor: request.user ? actorOf(request) : null, log: request.log as Logger };
}
