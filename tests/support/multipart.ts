import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

export interface FilePart {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A multipart/form-data body for app.inject: text fields and files, as a browser sends them. */
export function multipart(parts: Record<string, string | FilePart>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----ledgerline${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.contentType}\r\n\r\n`,
        ),
        value.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A real JPEG carrying EXIF metadata (a copyright string), to prove it is stripped. */
export async function jpegWithMetadata(width = 64, height = 48, marker = 'SECRET-EXIF-MARKER'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: marker, Artist: marker } })
    .toBuffer();
}

export async function png(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** A minimal, well-formed PDF (what a scanned document looks like to a byte check). */
export function pdf(extra = ''): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R ${extra} >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

export const file = (filename: string, contentType: string, content: Buffer): FilePart => ({ filename, contentType, content });
