import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZSignInAnswer } from '../../shared/contracts/auth';
import { idParams, ZNoData } from '../../shared/contracts/common';
import {
  ZAuthenticationOptionsAnswer,
  ZEmailCodeSignInRequest,
  ZFactorRemovalRequest,
  ZFactorSummaryAnswer,
  ZPasskeyAnswer,
  ZPasskeyListAnswer,
  ZPasskeyRegisterRequest,
  ZPasskeyRenameRequest,
  ZPasskeySignInOptionsRequest,
  ZPasskeySignInRequest,
  ZRecoverySignInRequest,
  ZRegistrationOptionsAnswer,
  ZTicketRequest,
  ZTotpConfirmAnswer,
  ZTotpConfirmRequest,
  ZTotpEnrolAnswer,
  ZTotpSignInRequest,
} from '../../shared/contracts/factors';
import type { AppContext } from '../context';
import { contextOf, publicContextOf, sessionOriginOf, setSessionCookie } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as factors from './service';
import * as signIn from './sign-in';

const passkeyIdParams = idParams("The passkey's id, as GET /api/auth/passkeys lists it.");

/**
 * The sign-in's second step, for the customer sign-in (/auth/signin/...) and the back office's
 * (/auth/admin/signin/...): a ticket works only at the sign-in it came from. Then the signed-in
 * user's factors. `enrolment: true` marks the calls a staff member without a factor may make
 * (plugins/auth.ts answers every other with 403 second_factor_required).
 */
export function factorRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    for (const [prefix, audience, who] of [
      ['/auth/signin', 'customer', 'Sign in'],
      ['/auth/admin/signin', 'staff', 'Sign in to the back office'],
    ] as const) {
      const tags = ['auth', 'second factor'];
      const signedIn = { 200: ZSignInAnswer };

      api.post(
        `${prefix}/totp`,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: { tags, summary: `${who}: second step with a code from the authenticator app`, body: ZTotpSignInRequest, response: signedIn },
        },
        async (request, reply) => {
          const origin = sessionOriginOf(request);
          const result = await signIn.signInWithTotp(publicContextOf(request, context), { ...request.body, audience, origin });
          setSessionCookie(reply, result.token, context.config);
          return { data: result };
        },
      );

      api.post(
        `${prefix}/recovery`,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: { tags, summary: `${who}: second step with a recovery code (each works once)`, body: ZRecoverySignInRequest, response: signedIn },
        },
        async (request, reply) => {
          const origin = sessionOriginOf(request);
          const result = await signIn.signInWithRecoveryCode(publicContextOf(request, context), { ...request.body, audience, origin });
          setSessionCookie(reply, result.token, context.config);
          return { data: result };
        },
      );

      api.post(
        `${prefix}/email-code`,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: { tags, summary: `${who}: second step with the code emailed for the ticket`, body: ZEmailCodeSignInRequest, response: signedIn },
        },
        async (request, reply) => {
          const origin = sessionOriginOf(request);
          const result = await signIn.signInWithEmailCode(publicContextOf(request, context), { ...request.body, audience, origin });
          setSessionCookie(reply, result.token, context.config);
          return { data: result };
        },
      );

      api.post(
        `${prefix}/email-code/resend`,
        {
          config: { access: 'public', ...perMinute(5) },
          schema: {
            tags,
            summary: `${who}: email a new code for a ticket that offers "email" (at most once a minute; the earlier code stops working)`,
            body: ZTicketRequest,
            response: { 200: ZNoData },
          },
        },
        async (request, reply) => send(reply, await signIn.resendSignInEmailCode(publicContextOf(request, context), { ticket: request.body.ticket, audience })),
      );

      api.post(
        `${prefix}/passkey/options`,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: {
            tags,
            summary: `${who} with a passkey: the challenge (with a ticket: its second step; without: the passkey alone)`,
            body: ZPasskeySignInOptionsRequest,
            response: { 200: ZAuthenticationOptionsAnswer },
          },
        },
        async (request) => ({ data: await signIn.passkeySignInOptions(publicContextOf(request, context), { ticket: request.body.ticket, audience }) }),
      );

      api.post(
        `${prefix}/passkey`,
        {
          config: { access: 'public', ...perMinute(20) },
          schema: { tags, summary: `${who} with a passkey: its signed answer to the challenge`, body: ZPasskeySignInRequest, response: signedIn },
        },
        async (request, reply) => {
          const origin = sessionOriginOf(request);
          const result = await signIn.signInWithPasskey(publicContextOf(request, context), { ...request.body, audience, origin });
          setSessionCookie(reply, result.token, context.config);
          return { data: result };
        },
      );
    }

    const tags = ['auth', 'second factor'];

    api.get(
      '/auth/factors',
      {
        config: { access: 'user', enrolment: true },
        schema: { tags, summary: "The user's second factors, and whether one must be set up first (staff)", response: { 200: ZFactorSummaryAnswer } },
      },
      async (request) => ({ data: await factors.factorSummary(contextOf(request, context)) }),
    );

    api.get(
      '/auth/passkeys',
      { config: { access: 'user', enrolment: true }, schema: { tags, summary: "The user's passkeys", response: { 200: ZPasskeyListAnswer } } },
      async (request) => ({ data: await factors.listPasskeys(contextOf(request, context)) }),
    );

    api.post(
      '/auth/step-up/passkey/options',
      {
        config: { access: 'user', ...perMinute(20) },
        schema: {
          tags,
          summary:
            "Confirm it's you with a passkey before a sensitive change (password, email, removing a factor): the challenge, whose answer the change's call carries",
          response: { 200: ZAuthenticationOptionsAnswer },
        },
      },
      async (request) => ({ data: await factors.stepUpOptions(contextOf(request, context)) }),
    );

    api.post(
      '/auth/passkeys/register/options',
      {
        config: { access: 'user', enrolment: true, ...perMinute(20) },
        schema: { tags, summary: 'Start registering a passkey: the creation options', response: { 200: ZRegistrationOptionsAnswer } },
      },
      async (request) => ({ data: await factors.passkeyRegistrationOptions(contextOf(request, context)) }),
    );

    api.post(
      '/auth/passkeys/register',
      {
        config: { access: 'user', enrolment: true, ...perMinute(20) },
        schema: {
          tags,
          summary: "Register a passkey: the browser's answer to the creation options",
          body: ZPasskeyRegisterRequest,
          response: { 201: ZPasskeyAnswer },
        },
      },
      async (request, reply) => send(reply, await factors.registerPasskey(contextOf(request, context), request.body)),
    );

    api.patch(
      '/auth/passkeys/:id',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Rename a passkey',
          params: passkeyIdParams,
          body: ZPasskeyRenameRequest,
          response: { 200: ZPasskeyAnswer },
        },
      },
      async (request, reply) => send(reply, await factors.renamePasskey(contextOf(request, context), request.params.id, request.body.name)),
    );

    api.delete(
      '/auth/passkeys/:id',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Remove a passkey, with a fresh second factor (other sessions end; staff keep at least one factor)',
          params: passkeyIdParams,
          body: ZFactorRemovalRequest.nullish(),
          response: { 200: ZNoData },
        },
      },
      async (request, reply) => send(reply, await factors.removePasskey(contextOf(request, context), request.params.id, request.body ?? {})),
    );

    api.post(
      '/auth/totp/enrol',
      {
        config: { access: 'user', enrolment: true, ...perMinute(10) },
        schema: { tags, summary: 'Start setting up an authenticator app: its secret, shown this once', response: { 200: ZTotpEnrolAnswer } },
      },
      async (request, reply) => send(reply, await factors.enrolTotp(contextOf(request, context))),
    );

    api.post(
      '/auth/totp/confirm',
      {
        config: { access: 'user', enrolment: true, ...perMinute(10) },
        schema: {
          tags,
          summary: 'Confirm the authenticator app with a first code: answers the 10 recovery codes, shown this once',
          body: ZTotpConfirmRequest,
          response: { 201: ZTotpConfirmAnswer },
        },
      },
      async (request, reply) => send(reply, await factors.confirmTotp(contextOf(request, context), request.body.code)),
    );

    api.delete(
      '/auth/totp',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Remove the authenticator app and its recovery codes, with a fresh second factor (other sessions end; staff keep at least one factor)',
          body: ZFactorRemovalRequest.nullish(),
          response: { 200: ZNoData },
        },
      },
      async (request, reply) => send(reply, await factors.removeTotp(contextOf(request, context), request.body ?? {})),
    );
  };
}
