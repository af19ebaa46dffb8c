import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZResetPasswordRequest,
  ZSignInAnswer,
  ZSignInRequest,
  ZVerifyEmailRequest,
} from '../../shared/contracts/auth';
import { ZSignUpRequest } from '../../shared/contracts/signup';
import { ZNoData } from '../../shared/contracts/common';
import { ZUserAnswer } from '../../shared/contracts/user';
import type { AppContext } from '../context';
import { clearSessionCookie, contextOf, originOf, publicContextOf, setSessionCookie } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as users from '../users/service';
import * as auth from './service';

export function authRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.post(
      '/auth/signup',
      {
        config: { access: 'public', ...perMinute(10) },
        schema: { tags: ['auth'], summary: 'Open a customer account', body: ZSignUpRequest, response: { 201: ZUserAnswer } },
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
        { config: { access: 'public', ...perMinute(20) }, schema: { tags: ['auth'], summary, body: ZSignInRequest, response: { 200: ZSignInAnswer } } },
        async (request, reply) => {
          const signedIn = await auth.signIn(publicContextOf(request, context), request.body, { adminOnly, origin: originOf(request) });
          setSessionCookie(reply, signedIn.token, context.config);
          return { data: signedIn };
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
      { config: { access: 'user' }, schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: ZUserAnswer } } },
      async (request) => ({ data: await users.me(contextOf(request, context)) }),
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
