import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import {
  type NotificationPreferencesChange,
  ZNotificationAnswer,
  ZNotificationListQuery,
  ZNotificationPageAnswer,
  ZNotificationPreferencesAnswer,
  ZNotificationPreferencesUpdate,
  ZReadAllAnswer,
} from '../../shared/contracts/notifications';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { send } from '../plugins/reply';
import * as notifications from './service';

export function notificationRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/notifications',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['notifications'],
          summary: 'My notifications, newest first (all, or only the unread ones), with the unread count',
          querystring: ZNotificationListQuery,
          response: { 200: ZNotificationPageAnswer },
        },
      },
      async (request) => ({ data: await notifications.myNotifications(contextOf(request, context), request.query) }),
    );

    api.post(
      '/notifications/read-all',
      {
        config: { access: 'customer' },
        schema: { tags: ['notifications'], summary: 'Mark all my notifications as read', response: { 200: ZReadAllAnswer } },
      },
      async (request, reply) => send(reply, await notifications.readAllNotifications(contextOf(request, context))),
    );

    api.post(
      '/notifications/:id/read',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['notifications'],
          summary: 'Mark one of my notifications as read',
          params: idParams("The notification's id."),
          response: { 200: ZNotificationAnswer },
        },
      },
      async (request) => ({ data: await notifications.readNotification(contextOf(request, context), request.params.id) }),
    );

    api.get(
      '/notifications/preferences',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['notifications'],
          summary: 'What I am told about, in the app and by email, per kind (with the amounts of the threshold kinds)',
          response: { 200: ZNotificationPreferencesAnswer },
        },
      },
      async (request) => ({ data: await notifications.myPreferences(contextOf(request, context)) }),
    );

    api.put(
      '/notifications/preferences',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['notifications'],
          summary: 'Change what I am told about (the kinds sent; the others stay). The new-device sign-in alert cannot be switched off.',
          body: ZNotificationPreferencesUpdate,
          response: { 200: ZNotificationPreferencesAnswer },
        },
      },
      async (request, reply) =>
        send(reply, await notifications.updateMyPreferences(contextOf(request, context), request.body as NotificationPreferencesChange)),
    );
  };
}
