import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { UPLOAD_BYTES_MAX } from '../../shared/limits';
import type { DB } from '../db/database';
import type { StoredFilePurpose, StoredMediaType } from '../db/schema';
import { AppError, badRequest } from '../lib/errors';

// Shared file storage for uploads (profile pictures, identity documents).
// - A file's name and Content-Type header prove nothing: the type is read from its bytes.
// - Images are decoded and re-encoded, which drops every metadata block (EXIF location, camera
//   serials, embedded thumbnails) and anything hidden after the image data.
// - Files live under DATA_DIR/uploads with random names, outside anything served statically;
//   they are read only through routes that check who is asking.

export const UPLOAD_SIZE_MESSAGE = `Each file must be at most ${UPLOAD_BYTES_MAX / 1024 / 1024} MB.`;
/** Larger images are refused before decoding: a small file can still decode to gigabytes. */
export const IMAGE_PIXELS_MAX = 40_000_000;
/** Re-encoded images fit in this box (documents stay legible, pictures stay small). */
export const IMAGE_EDGE_MAX = { document: 2400, avatar: 512 } as const;

export type UploadKind = 'image' | 'image_or_pdf';

export interface UploadedPart {
  field: string;
  filename: string;
  buffer: Buffer;
}

export interface MultipartInput {
  files: Map<string, UploadedPart>;
  fields: Record<string, string>;
}

/**
 * Reads a multipart request into memory (at most a few files of at most 5 MB each, as the
 * multipart plugin's limits enforce). Unknown file fields are refused; repeated fields too.
 */
export async function readMultipart(request: FastifyRequest, allowed: { files: string[]; fields: string[] }): Promise<MultipartInput> {
  if (!request.isMultipart()) throw new AppError('unsupported_media', 'Please send the form as multipart/form-data.');
  const files = new Map<string, UploadedPart>();
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
        const buffer = await part.toBuffer();
        if (part.file.truncated) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
        // A file input left empty arrives as an empty part: treat it as missing.
        if (buffer.length > 0) files.set(part.fieldname, { field: part.fieldname, filename: part.filename ?? '', buffer });
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

export interface PreparedFile {
  buffer: Buffer;
  mediaType: StoredMediaType;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** PDF features that run code or smuggle files: a scanned document never needs them. */
const PDF_ACTIVE_CONTENT = /\/(JavaScript|JS|Launch|EmbeddedFile|RichMedia|OpenAction|AA)\b/;

/**
 * Checks an upload by its bytes and makes the copy the bank keeps: images re-encoded (no
 * metadata survives, pixel size bounded), PDFs kept as they are when they carry no active content.
 */
export async function prepareUpload(part: UploadedPart, kind: UploadKind, label: string, edge: number = IMAGE_EDGE_MAX.document): Promise<PreparedFile> {
  if (part.buffer.length > UPLOAD_BYTES_MAX) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
  const detected = await fileTypeFromBuffer(part.buffer);
  const wanted = kind === 'image' ? 'a JPEG, PNG or WebP image' : 'a JPEG, PNG or WebP image, or a PDF';
  if (detected?.mime === 'application/pdf' && kind === 'image_or_pdf') {
    if (PDF_ACTIVE_CONTENT.test(part.buffer.toString('latin1'))) {
      throw new AppError('unsupported_media', `${label}: PDFs with scripts, actions or attached files are not accepted. Please upload a plain scan.`, {
        [part.field]: 'PDF with active content',
      });
    }
    return { buffer: part.buffer, mediaType: 'application/pdf' };
  }
  if (!detected || !IMAGE_TYPES.has(detected.mime)) {
    throw new AppError('unsupported_media', `${label} must be ${wanted}.`, { [part.field]: `Must be ${wanted}` });
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(part.buffer).metadata();
  } catch {
    throw new AppError('unsupported_media', `${label} could not be read as an image.`, { [part.field]: 'Unreadable image' });
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0) throw new AppError('unsupported_media', `${label} could not be read as an image.`, { [part.field]: 'Unreadable image' });
  if (pixels > IMAGE_PIXELS_MAX) {
    throw badRequest(`${label} is too large: at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels.`, { [part.field]: 'Too many pixels' });
  }
  const keepPng = detected.mime === 'image/png';
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped; sharp writes no
    // metadata unless asked (withMetadata), so the output carries pixels only.
    const pipeline = sharp(part.buffer, { limitInputPixels: IMAGE_PIXELS_MAX, failOn: 'error' })
      .rotate()
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
    const buffer = keepPng ? await pipeline.png({ compressionLevel: 9 }).toBuffer() : await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (buffer.length > UPLOAD_BYTES_MAX) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
    return { buffer, mediaType: keepPng ? 'image/png' : 'image/jpeg' };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('unsupported_media', `${label} could not be read as an image.`, { [part.field]: 'Unreadable image' });
  }
}

export const uploadsDir = (app: FastifyInstance) => path.join(app.config.dataDir, 'uploads');

const filePath = (app: FastifyInstance, storageName: string) => {
  if (!/^[0-9a-f]{32}$/.test(storageName)) throw new Error('Assertion failed: storage names are 32 hex characters');
  return path.join(uploadsDir(app), storageName);
};

/**
 * Writes prepared files to disk (each under a new random name, atomically) and returns their
 * names. Call before the database transaction that records them; on failure call discardFiles.
 */
export async function writeFiles(app: FastifyInstance, prepared: PreparedFile[]): Promise<string[]> {
  await fs.mkdir(uploadsDir(app), { recursive: true, mode: 0o700 });
  const names: string[] = [];
  try {
    for (const file of prepared) {
      const name = randomBytes(16).toString('hex');
      const target = filePath(app, name);
      const temporary = `${target}.partial`;
      await fs.writeFile(temporary, file.buffer, { mode: 0o600, flag: 'wx' });
      await fs.rename(temporary, target);
      names.push(name);
    }
  } catch (error) {
    await discardFiles(app, names);
    throw error;
  }
  return names;
}

export async function discardFiles(app: FastifyInstance, storageNames: string[]): Promise<void> {
  for (const name of storageNames) await fs.rm(filePath(app, name), { force: true }).catch(() => undefined);
}

export async function recordFile(
  db: DB,
  input: { ownerId: string; purpose: StoredFilePurpose; storageName: string; mediaType: StoredMediaType; sizeBytes: number },
): Promise<string> {
  const row = await db
    .insertInto('stored_files')
    .values({ owner_id: input.ownerId, purpose: input.purpose, storage_name: input.storageName, media_type: input.mediaType, size_bytes: input.sizeBytes })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Sends a stored file to a caller the route has already authorized. Never rendered inline as
 * active content: a sandboxing CSP, nosniff, and PDFs as attachments.
 */
export async function sendStoredFile(app: FastifyInstance, reply: FastifyReply, fileId: string, downloadName: string): Promise<FastifyReply> {
  const file = await app.db.selectFrom('stored_files').selectAll().where('id', '=', fileId).executeTakeFirst();
  if (!file) throw new AppError('not_found', 'File not found');
  let content: Buffer;
  try {
    content = await fs.readFile(filePath(app, file.storage_name));
  } catch {
    throw new AppError('not_found', 'File not found');
  }
  const extension = file.media_type === 'application/pdf' ? 'pdf' : file.media_type === 'image/png' ? 'png' : 'jpg';
  const disposition = file.media_type === 'application/pdf' ? 'attachment' : 'inline';
  return reply
    .header('Content-Type', file.media_type)
    .header('Content-Disposition', `${disposition}; filename="${downloadName.replace(/[^A-Za-z0-9._-]/g, '_')}.${extension}"`)
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(content);
}
