import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, ZCustomerIdParams } from '../../shared/contracts/common';
import { KYC_FILE_MEDIA_TYPES, KYC_FORM, ZCustomerKyc, ZKycDecisionAnswer, ZKycQueue, ZKycQueueQuery, ZKycRejectRequest } from '../../shared/contracts/kyc';
import { ZUserAnswer } from '../../shared/contracts/user';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import { fileResponse, multipartSchema, readForm, sendStoredFile } from '../plugins/uploads';
import * as kyc from './service';
import { ROLES } from '../../shared/staff-roles';

const submissionIdParams = idParams("The KYC submission's id.");

export function kycRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.post(
      '/user/verification',
      {
        config: { access: 'customer', ...perMinute(10) },
        schema: {
          tags: ['kyc'],
          summary: 'Send identity documents for review',
          ...multipartSchema(KYC_FORM),
          response: { 201: ZUserAnswer },
        },
      },
      async (request, reply) => send(reply, await kyc.submitVerification(contextOf(request, context), await readForm(request, KYC_FORM))),
    );

    api.get(
      '/user/verification/files/:id',
      {
        config: { access: 'user' },
        schema: {
          tags: ['kyc'],
          summary: 'An identity document (its owner and staff only)',
          params: idParams("The file's id, as a KYC submission's files carry it."),
          response: { 200: fileResponse('The stored document', KYC_FILE_MEDIA_TYPES) },
        },
      },
      async (request, reply) => sendStoredFile(reply, await kyc.readKycFile(contextOf(request, context), request.params.id)),
    );

    api.get(
      '/admin/kyc',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: { tags: ['kyc', 'staff'], summary: 'The identity review queue', querystring: ZKycQueueQuery, response: { 200: ZKycQueue } },
      },
      async (request) => {
        const { status, ...page } = request.query;
        return { data: await kyc.kycQueue(contextOf(request, context), status, page) };
      },
    );

    api.get(
      '/admin/kyc/users/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: {
          tags: ['kyc', 'staff'],
          summary: "A customer's verification status and submissions",
          params: ZCustomerIdParams,
          response: { 200: ZCustomerKyc },
        },
      },
      async (request) => ({ data: await kyc.customerKyc(contextOf(request, context), request.params.id) }),
    );

    api.post(
      '/admin/kyc/:id/approve',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: {
          tags: ['kyc', 'staff'],
          summary: 'Approve a submission: the customer is verified',
          params: submissionIdParams,
          response: { 200: ZKycDecisionAnswer },
        },
      },
      async (request, reply) => send(reply, await kyc.approveSubmission(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/admin/kyc/:id/reject',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: {
          tags: ['kyc', 'staff'],
          summary: 'Reject a submission with a reason the customer is emailed',
          params: submissionIdParams,
          body: ZKycRejectRequest,
          response: { 200: ZKycDecisionAnswer },
        },
      },
      async (request, reply) => send(reply, await kyc.rejectSubmission(contextOf(request, context), request.params.id, request.body.reason)),
    );
  };
}
