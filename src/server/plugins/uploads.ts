import type {} from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UPLOAD_BYTES_MAX } from '../../shared/limits';
import { type StoredFileContent, UPLOAD_SIZE_MESSAGE, type UploadedFile } from '../files/service';
import { AppError, badRequest, validationError } from '../lib/errors';

// The HTTP side of uploads: reading a multipart/form-data request into plain bytes and fields for
// a service, documenting such a form in the OpenAPI document, and sending a stored file back.

/**
 * A multipart form as a contract describes it (src/shared/contracts): its file fields (each with
 * what it must be, for the API document), its text fields (a zod object, validated here as a route
 * schema validates a JSON body), and the answer when something is missing: every declared field is
 * required, and the message names each missing one.
 */
export interface UploadForm<Files extends string, Fields extends z.ZodObject | undefined = undefined> {
  files: Record<Files, string>;
  fields?: Fields;
  missing: { message: string; field: string };
}

/** What a service receives: validated text fields and one file per declared file field. */
export interface FormInput<Files extends string, Fields extends z.ZodObject | undefined> {
  fields: Fields extends z.ZodObject ? z.output<Fields> : Record<string, never>;
  files: Record<Files, UploadedFile>;
}

/**
 * Reads a multipart request into memory (at most a few files of at most 5 MB each, as the
 * multipart plugin's limits enforce). Unknown file fields are refused, repeated ones too; unknown
 * text fields are ignored. A file input left empty arrives as an empty part: it counts as missing.
 */
async function readParts(request: FastifyRequest, allowed: { files: string[]; fields: string[] }) {
  if (!request.isMultipart()) throw new AppError('unsupported_media', 'Please send the form as multipart/form-data.');
  const files = new Map<string, UploadedFile>();
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!allowed.files.includes(part.fieldname)) {
          part.file.resume();
          throw badRequest(`Unexpected file field "${part.fieldname.slice(0, 40)}".`);
        }
        if (files.has(part.fieldname)) {
          part.file.resume();
          throw badRequest(`Send one file for ${part.fieldname}.`);
        }
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
        if (bytes.length > 0) files.set(part.fieldname, { field: part.fieldname, filename: part.filename ?? '', bytes, mimetype: part.mimetype });
      } else {
        if (!allowed.fields.includes(part.fieldname)) continue;
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('Too many parts in this form.');
    if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest('The form data could not be read.');
    if (error instanceof Error && /multipart|boundary|Unexpected end/i.test(error.message)) throw badRequest('The form data could not be read.');
    throw error;
  }
  return { files, fields };
}

/** Reads and checks a multipart form against its contract; the service gets plain, validated input. */
export async function readForm<Files extends string, Fields extends z.ZodObject | undefined = undefined>(
  request: FastifyRequest,
  form: UploadForm<Files, Fields>,
): Promise<FormInput<Files, Fields>> {
  const fileFields = Object.keys(form.files) as Files[];
  const textFields = form.fields ? Object.keys(form.fields.shape) : [];
  const parts = await readParts(request, { files: fileFields, fields: textFields });
  const missing = [...fileFields.filter((field) => !parts.files.has(field)), ...textFields.filter((field) => !parts.fields[field]?.trim())];
  if (missing.length > 0) throw badRequest(form.missing.message, Object.fromEntries(missing.map((field) => [field, form.missing.field])));
  let fields: unknown = {};
  if (form.fields) {
    const parsed = form.fields.safeParse(parts.fields);
    if (!parsed.success) throw validationError(parsed.error);
    fields = parsed.data;
  }
  return { fields: fields as FormInput<Files, Fields>['fields'], files: Object.fromEntries(parts.files) as Record<Files, UploadedFile> };
}

/**
 * A multipart route's `schema` fragment: the form as the OpenAPI document shows it. The body is
 * documentation only (it accepts anything): the multipart stream is read by the handler through
 * readForm, which refuses what the form does not allow, and a JSON body must reach it to be
 * answered 415 rather than 400.
 */
export function multipartSchema<Files extends string, Fields extends z.ZodObject | undefined>(form: UploadForm<Files, Fields>) {
  const text = form.fields ? (z.toJSONSchema(form.fields, { io: 'input', unrepresentable: 'any' }) as { properties?: object; required?: string[] }) : {};
  const sizeMb = UPLOAD_BYTES_MAX / 1024 / 1024;
  const files = Object.fromEntries(
    Object.entries<string>(form.files).map(([name, description]) => [
      name,
      { type: 'string', format: 'binary', description: `${description}, at most ${sizeMb} MB` },
    ]),
  );
  const documented = {
    type: 'object',
    properties: { ...files, ...text.properties },
    required: [...Object.keys(files), ...(text.required ?? [])],
  };
  return { consumes: ['multipart/form-data'], body: z.any().meta(documented) };
}

/** A binary response (a stored file) as the OpenAPI document shows it; such a body is sent as is, never serialized. */
export function fileResponse(description: string, mediaTypes: readonly string[]) {
  const binary = z.any().meta({ type: 'string', format: 'binary' });
  return { description, content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: binary }])) };
}

/**
 * Sends a stored file to a caller the service has already authorized. Never rendered inline as
 * active content: a sandboxing CSP, nosniff (security headers), and PDFs as attachments.
 */
export function sendStoredFile(reply: FastifyReply, file: StoredFileContent): FastifyReply {
  const extension = file.mediaType === 'application/pdf' ? 'pdf' : file.mediaType === 'image/png' ? 'png' : 'jpg';
  const disposition = file.mediaType === 'application/pdf' ? 'attachment' : 'inline';
  return reply
    .header('Content-Type', file.mediaType)
    .header('Content-Disposition', `${disposition}; filename="${file.downloadName.replace(/[^A-Za-z0-9._-]/g, '_')}.${extension}"`)
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(file.bytes);
}
