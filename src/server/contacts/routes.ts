import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import {
  CONTACT_PER_MINUTE_MAX,
  ZContactAnswer,
  ZContactDeleted,
  ZContactListQuery,
  ZContactPage,
  ZContactRequest,
  ZContactSent,
} from '../../shared/contracts/contacts';
import type { AppContext } from '../context';
import { contextOf, publicContextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as contacts from './service';
import { ROLES } from '../../shared/staff-roles';

const contactIdParams = idParams("The contact message's _id.");

export function contactRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.post(
      '/contacts',
      {
        config: { access: 'public', ...perMinute(CONTACT_PER_MINUTE_MAX) },
        schema: { tags: ['contacts'], summary: 'Write to the bank (the contact form)', body: ZContactRequest, response: { 201: ZContactSent } },
      },
      async (request, reply) => send(reply, await contacts.sendContactMessage(publicContextOf(request, context), request.body, request.ip ?? null)),
    );

    api.get(
      '/contacts',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: { tags: ['contacts', 'staff'], summary: 'The contact inbox, newest first', querystring: ZContactListQuery, response: { 200: ZContactPage } },
      },
      async (request) => ({ data: await contacts.contactInbox(contextOf(request, context), request.query) }),
    );

    api.post(
      '/contacts/:id/read',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: {
          tags: ['contacts', 'staff'],
          summary: 'Mark a contact message read',
          params: contactIdParams,
          response: { 200: ZContactAnswer },
        },
      },
      async (request) => ({ data: await contacts.markContactRead(contextOf(request, context), request.params.id) }),
    );

    api.delete(
      '/contacts/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: {
          tags: ['contacts', 'staff'],
          summary: 'Delete a contact message',
          params: contactIdParams,
          response: { 200: ZContactDeleted },
        },
      },
      async (request, reply) => send(reply, await contacts.deleteContact(contextOf(request, context), request.params.id)),
    );
  };
}
