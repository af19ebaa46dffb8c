import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SIGN_IN_CODE_SENT_MESSAGE,
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZResetPasswordRequest,
  ZSignInRequest,
  ZVerifyEmailRequest,
} from '../../shared/contracts/auth';
import { ZPasswordSignInAnswer } from '../../shared/contracts/factors';
import { ZSignUpRequest } from '../../shared/contracts/signup';
import { idParams, ZNoData } from '../../shared/contracts/common';
import { ZSessionEndedAnswer, ZSessionListAnswer } from '../../shared/contracts/sessions';
import { ZUserAnswer } from '../../shared/contracts/user';
import type { AppContext } from '../context';
import { clearSessionCookie, contextOf, publicContextOf, sessionOriginOf, setSessionCookie } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as users from '../users/service';
import * as auth from './service';
import * as sessions from './sessions';

export function authRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.post(
      '/auth/signup',
      {
        config: { access: 'public', ...perMinute(10) },
        schema: {
          tags: ['auth'],
          summary: 'Open a customer account (the same answer for an email that has one: its owner is emailed instead)',
          body: ZSignUpRequest,
          response: { 201: ZNoData },
        },
      },
      async (request, reply) => send(reply, await auth.signUp(publicContextOf(request, context), request.body)),
    );

    // The session token goes in an HttpOnly cookie for browsers and in the answer for API clients.
    for (const [url, adminOnly, summary] of [
      ['/auth/signin', false, 'Sign in'],
      ['/auth/admin/signin', true, 'Sign in to the back office (staff only)'],
    ] as const) {
      api.post(
        url,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: { tags: ['auth'], summary, body: ZSignInRequest, response: { 200: ZPasswordSignInAnswer } },
        },
        async (request, reply) => {
          const outcome = await auth.signIn(publicContextOf(request, context), request.body, { adminOnly, origin: sessionOriginOf(request) });
          // An account with a second factor gets a ticket for the second step, and no session yet (ADR 011).
          if ('token' in outcome) setSessionCookie(reply, outcome.token, context.config);
          // A ticket offering the emailed code (ADR 016, past many failed sign-ins) says the code was mailed.
          if ('secondFactor' in outcome && outcome.secondFactor.methods.includes('email')) return { data: outcome, message: SIGN_IN_CODE_SENT_MESSAGE };
          return { data: outcome };
        },
      );
    }

    api.post(
      '/auth/verify-email',
      {
        config: { access: 'user', ...perMinute(10) },
        schema: { tags: ['auth'], summary: 'Confirm the email with the mailed code', body: ZVerifyEmailRequest, response: { 200: ZUserAnswer } },
      },
      async (request, reply) => send(reply, await auth.verifyEmail(contextOf(request, context), request.body.otp)),
    );

    api.post(
      '/auth/resend-otp',
      { config: { access: 'user', ...perMinute(5) }, schema: { tags: ['auth'], summary: 'Mail a new verification code', response: { 200: ZNoData } } },
      async (request, reply) => send(reply, await auth.resendVerificationCode(contextOf(request, context))),
    );

    api.post(
      '/auth/forgot-password',
      {
        config: { access: 'public', ...perMinute(5) },
        schema: { tags: ['auth'], summary: 'Mail a password reset link (same answer for any email)', body: ZForgotPasswordRequest, response: { 200: ZNoData } },
      },
      async (request, reply) => send(reply, await auth.requestPasswordReset(publicContextOf(request, context), request.body.email)),
    );

    api.post(
      '/auth/reset-password',
      {
        config: { access: 'public', ...perMinute(10) },
        schema: { tags: ['auth'], summary: 'Choose a new password with a reset link', body: ZResetPasswordRequest, response: { 200: ZNoData } },
      },
      async (request, reply) => send(reply, await auth.resetPassword(publicContextOf(request, context), request.body)),
    );

    api.post(
      '/auth/signout',
      { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'End the session', response: { 200: ZNoData } } },
      async (request, reply) => {
        const outcome = await auth.signOut(publicContextOf(request, context));
        clearSessionCookie(reply);
        return send(reply, outcome);
      },
    );

    api.get(
      '/auth/user',
      { config: { access: 'user', enrolment: true }, schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: ZUserAnswer } } },
      async (request) => ({ data: await users.me(contextOf(request, context)) }),
    );

    api.get(
      '/auth/sessions',
      {
        config: { access: 'user' },
        schema: { tags: ['auth', 'sessions'], summary: 'Where the user is signed in: every live session', response: { 200: ZSessionListAnswer } },
      },
      async (request) => ({ data: await sessions.listMySessions(contextOf(request, context)) }),
    );

    api.delete(
      '/auth/sessions/:id',
      {
        config: { access: 'user' },
        schema: {
          tags: ['auth', 'sessions'],
          summary: "End one of the user's sessions (another user's is not found)",
          params: idParams("The session's id, as GET /api/auth/sessions lists it."),
          response: { 200: ZSessionEndedAnswer },
        },
      },
      async (request, reply) => send(reply, await sessions.endMySession(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/auth/sessions/revoke-others',
      {
        config: { access: 'user' },
        schema: { tags: ['auth', 'sessions'], summary: 'End every session of the user but this one', response: { 200: ZSessionEndedAnswer } },
      },
      async (request, reply) => send(reply, await sessions.endMyOtherSessions(contextOf(request, context))),
    );

    api.post(
      '/auth/change-password',
      {
        config: { access: 'user', ...perMinute(10) },
        schema: { tags: ['auth'], summary: 'Change the password (other sessions end)', body: ZChangePasswordRequest, response: { 200: ZNoData } },
      },
      async (request, reply) => send(reply, await auth.changePassword(contextOf(request, context), request.body)),
    );
  };
}
