import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { UPLOAD_BYTES_MAX } from '../../shared/limits';
import type { Config } from '../config';
import type { StoredMediaType } from '../db/schema';
import { AppError, assert, badRequest, notFound } from '../lib/errors';
import { normalisePdf, PDF_PAGES_MAX, PdfRefused } from './pdf';
import type { StoredFileRow } from './repository';

// Stored uploads (profile pictures, identity documents), without HTTP: the route reads the form
// (plugins/uploads.ts) and hands the files here as plain bytes.
// - A file's name and Content-Type header prove nothing: the type is read from its bytes.
// - Images are decoded and re-encoded, which drops every metadata block (EXIF location, camera
//   serials, embedded thumbnails) and anything hidden after the image data.
// - Files live under DATA_DIR/uploads with random names, outside anything served statically;
//   they are read only through services that check who is asking.

export const UPLOAD_SIZE_MESSAGE = `Each file must be at most ${UPLOAD_BYTES_MAX / 1024 / 1024} MB.`;
/** Larger images are refused before decoding: a small file can still decode to gigabytes. */
export const IMAGE_PIXELS_MAX = 40_000_000;
/** Re-encoded images fit in this box (documents stay legible, pictures stay small). */
export const IMAGE_EDGE_MAX = { document: 2400, avatar: 512 } as const;

export type UploadKind = 'image' | 'image_or_pdf';

/** One file of a form, as the client sent it: only `bytes` is trusted, and only after prepareUpload. */
export interface UploadedFile {
  field: string;
  filename: string;
  bytes: Buffer;
  /** The type the client claimed: informative only. */
  mimetype: string;
}

/** The copy of an upload the bank keeps. */
export interface PreparedFile {
  bytes: Buffer;
  mediaType: StoredMediaType;
}

/** A stored file's content, for a caller already authorized to read it. */
export interface StoredFileContent {
  bytes: Buffer;
  mediaType: StoredMediaType;
  /** The download's name without extension (never anything the client sent). */
  downloadName: string;
}

/** What file storage needs of the context: where the data directory is. */
export type FilesContext = { config: Pick<Config, 'dataDir'> };

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

const unreadableImage = (label: string, field: string) =>
  new AppError('unsupported_media', `${label} could not be read as an image.`, { [field]: 'Unreadable image' });

/** Why a PDF was refused, as the customer reads it (pdf.ts decides). */
function pdfRefusal(label: string, field: string, refusal: PdfRefused): AppError {
  const messages: Record<PdfRefused['reason'], [string, string]> = {
    active_content: [`${label}: PDFs with scripts, actions, forms or attached files are not accepted. Please upload a plain scan.`, 'PDF with active content'],
    unreadable: [`${label} could not be read as a PDF. Please upload a plain scan.`, 'Unreadable PDF'],
    encrypted: [`${label} is a password-protected PDF. Please upload it without a password.`, 'Encrypted PDF'],
    no_pages: [`${label} is a PDF without pages.`, 'PDF without pages'],
    too_many_pages: [`${label} has more than ${PDF_PAGES_MAX} pages. Please upload only the pages we need.`, 'Too many pages'],
    too_large: [`${label} is too large once decompressed. Please upload a plain scan.`, 'PDF too large'],
  };
  const [message, fieldMessage] = messages[refusal.reason];
  return new AppError('unsupported_media', message, { [field]: fieldMessage });
}

/**
 * Checks an upload by its bytes and makes the copy the bank keeps: images re-encoded (no
 * metadata survives, pixel size bounded), PDFs parsed, refused if anything in them is active, and
 * rewritten from their pages (pdf.ts): the uploaded bytes are never stored.
 */
export async function prepareUpload(file: UploadedFile, kind: UploadKind, label: string, edge: number = IMAGE_EDGE_MAX.document): Promise<PreparedFile> {
  if (file.bytes.length > UPLOAD_BYTES_MAX) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
  const detected = await fileTypeFromBuffer(file.bytes);
  const wanted = kind === 'image' ? 'a JPEG, PNG or WebP image' : 'a JPEG, PNG or WebP image, or a PDF';
  if (detected?.mime === 'application/pdf' && kind === 'image_or_pdf') {
    try {
      const bytes = await normalisePdf(file.bytes);
      if (bytes.length > UPLOAD_BYTES_MAX) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
      return { bytes, mediaType: 'application/pdf' };
    } catch (error) {
      if (error instanceof PdfRefused) throw pdfRefusal(label, file.field, error);
      throw error;
    }
  }
  if (!detected || !IMAGE_TYPES.has(detected.mime)) {
    throw new AppError('unsupported_media', `${label} must be ${wanted}.`, { [file.field]: `Must be ${wanted}` });
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(file.bytes).metadata();
  } catch {
    throw unreadableImage(label, file.field);
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0) throw unreadableImage(label, file.field);
  if (pixels > IMAGE_PIXELS_MAX) {
    throw badRequest(`${label} is too large: at most ${IMAGE_PIXELS_MAX / 1_000_000} megapixels.`, { [file.field]: 'Too many pixels' });
  }
  const keepPng = detected.mime === 'image/png';
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped; sharp writes no
    // metadata unless asked (withMetadata), so the output carries pixels only.
    const pipeline = sharp(file.bytes, { limitInputPixels: IMAGE_PIXELS_MAX, failOn: 'error' })
      .rotate()
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
    const bytes = keepPng ? await pipeline.png({ compressionLevel: 9 }).toBuffer() : await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (bytes.length > UPLOAD_BYTES_MAX) throw new AppError('payload_too_large', UPLOAD_SIZE_MESSAGE);
    return { bytes, mediaType: keepPng ? 'image/png' : 'image/jpeg' };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadableImage(label, file.field);
  }
}

export const uploadsDir = (ctx: FilesContext) => path.join(ctx.config.dataDir, 'uploads');

const filePath = (ctx: FilesContext, storageName: string) => {
  assert(/^[0-9a-f]{32}$/.test(storageName), 'storage names are 32 hex characters');
  return path.join(uploadsDir(ctx), storageName);
};

/**
 * Writes prepared files to disk (each under a new random name, atomically) and returns their
 * names. Call before the database transaction that records them; on failure call discardFiles.
 */
export async function writeFiles(ctx: FilesContext, prepared: PreparedFile[]): Promise<string[]> {
  await fs.mkdir(uploadsDir(ctx), { recursive: true, mode: 0o700 });
  const names: string[] = [];
  try {
    for (const file of prepared) {
      const name = randomBytes(16).toString('hex');
      const target = filePath(ctx, name);
      const temporary = `${target}.partial`;
      await fs.writeFile(temporary, file.bytes, { mode: 0o600, flag: 'wx' });
      await fs.rename(temporary, target);
      names.push(name);
    }
  } catch (error) {
    await discardFiles(ctx, names);
    throw error;
  }
  return names;
}

/** Removes files from disk (after the rows naming them are gone, or were never written). */
export async function discardFiles(ctx: FilesContext, storageNames: string[]): Promise<void> {
  for (const name of storageNames) await fs.rm(filePath(ctx, name), { force: true }).catch(() => undefined);
}

/**
 * Writes prepared files, then runs `record` with their names (the transaction that records
 * them); if that fails, the files are removed again, so no file outlives a refused upload.
 */
export async function storeFiles<T>(ctx: FilesContext, prepared: PreparedFile[], record: (storageNames: string[]) => Promise<T>): Promise<T> {
  const names = await writeFiles(ctx, prepared);
  try {
    return await record(names);
  } catch (error) {
    await discardFiles(ctx, names);
    throw error;
  }
}

/** Reads a stored file's bytes for a caller the service has already authorized. */
export async function readStoredFile(ctx: FilesContext, file: StoredFileRow, downloadName: string): Promise<StoredFileContent> {
  try {
    return { bytes: await fs.readFile(filePath(ctx, file.storage_name)), mediaType: file.media_type, downloadName };
  } catch {
    throw notFound('File not found');
  }
}
