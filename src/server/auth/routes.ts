import type { FastifyInstance } from 'fastify';
import {
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZResetPasswordRequest,
  ZSignInRequest,
  ZSignUpRequest,
  ZVerifyEmailRequest,
} from '../../shared/contracts/auth';
import { parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';
import { toUserDto } from '../users/presenter';
import { changePassword, requestPasswordReset, resendVerificationCode, resetPassword, signIn, signUp, verifyEmail } from './service';
import { clearSessionCookie, currentUser, endSession, requireUser, setSessionCookie } from './sessions';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  app.post('/auth/signup', { config: perMinute(10) }, async (request, reply) => {
    const input = parseInput(ZSignUpRequest, request.body);
    const user = await signUp(app, input);
    return reply.status(201).send({
      data: await toUserDto(app.db, user),
      message: 'Account created. We emailed you a verification code; sign in to enter it.',
    });
  });

  const signInHandler = (adminOnly: boolean) => async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const input = parseInput(ZSignInRequest, request.body);
    const { token, user } = await signIn(app, request, input, { adminOnly });
    setSessionCookie(app, reply, token);
    return { data: { token, user: await toUserDto(app.db, user) } };
  };
  app.post('/auth/signin', { config: perMinute(20) }, signInHandler(false));
  app.post('/auth/admin/signin', { config: perMinute(20) }, signInHandler(true));

  app.post('/auth/verify-email', { preHandler: requireUser, config: perMinute(10) }, async (request) => {
    const { otp } = parseInput(ZVerifyEmailRequest, request.body);
    const user = await verifyEmail(app, currentUser(request), otp);
    return { data: await toUserDto(app.db, user), message: 'Email verified' };
  });

  app.post('/auth/resend-otp', { preHandler: requireUser, config: perMinute(5) }, async (request) => {
    await resendVerificationCode(app, currentUser(request));
    return { data: null, message: 'Email sent successfully' };
  });

  app.post('/auth/forgot-password', { config: perMinute(5) }, async (request) => {
    const { email } = parseInput(ZForgotPasswordRequest, request.body);
    await requestPasswordReset(app, email);
    return { data: null, message: 'If an account exists for this email, we have sent a link to reset the password. It is valid for 30 minutes.' };
  });

  app.post('/auth/reset-password', { config: perMinute(10) }, async (request) => {
    const { token, password } = parseInput(ZResetPasswordRequest, request.body);
    await resetPassword(app, token, password);
    return { data: null, message: 'Your password has been reset. Please sign in with the new password.' };
  });

  app.post('/auth/signout', async (request, reply) => {
    if (request.sessionId) await endSession(app.db, request.sessionId);
    clearSessionCookie(reply);
    return { data: null, message: 'Signed out' };
  });

  app.get('/auth/user', { preHandler: requireUser }, async (request) => ({ data: await toUserDto(app.db, currentUser(request)) }));

  app.post('/auth/change-password', { preHandler: requireUser, config: perMinute(10) }, async (request) => {
    const { oldPassword, newPassword } = parseInput(ZChangePasswordRequest, request.body);
    await changePassword(app, currentUser(request), request.sessionId ?? '', oldPassword, newPassword);
    return { data: null, message: 'Password updated successfully' };
  });
}
