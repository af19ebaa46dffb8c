import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import { PROFILE_PICTURE_FORM, PROFILE_PICTURE_MEDIA_TYPES, ZProfileUpdateAnswer, ZProfileUpdateRequest } from '../../shared/contracts/profile';
import { ZUserAnswer } from '../../shared/contracts/user';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import { fileResponse, multipartSchema, readForm, sendStoredFile } from '../plugins/uploads';
import * as profile from './service';

export function profileRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.patch(
      '/user/profile',
      {
        config: { access: 'user', ...perMinute(20) },
        schema: {
          tags: ['profile'],
          summary: 'Change my phone, address or state, or start/confirm an email change',
          body: ZProfileUpdateRequest,
          response: { 200: ZProfileUpdateAnswer },
        },
      },
      async (request) => profile.updateProfile(contextOf(request, context), request.body),
    );

    api.patch(
      '/user/profile-picture',
      {
        config: { access: 'user', ...perMinute(10) },
        schema: { tags: ['profile'], summary: 'Upload a new profile picture', ...multipartSchema(PROFILE_PICTURE_FORM), response: { 200: ZUserAnswer } },
      },
      async (request, reply) => send(reply, await profile.changeProfilePicture(contextOf(request, context), await readForm(request, PROFILE_PICTURE_FORM))),
    );

    api.get(
      '/user/profile-picture/:id',
      {
        config: { access: 'user' },
        schema: {
          tags: ['profile'],
          summary: "A user's profile picture (its owner and staff only)",
          params: idParams("The user's _id whose picture this is."),
          response: { 200: fileResponse('The picture', PROFILE_PICTURE_MEDIA_TYPES) },
        },
      },
      async (request, reply) => sendStoredFile(reply, await profile.readProfilePicture(contextOf(request, context), request.params.id)),
    );
  };
}
