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

/**
 * A PDF written byte by byte, as hostile files are: objects numbered from 1 (`N 0 obj ... endobj`),
 * a classic cross-reference table with their real offsets, and a trailer. Buffers are written as
 * they are (binary stream data).
 */
export function buildPdf(objects: Array<string | Buffer>, trailer = '/Root 1 0 R'): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof object === 'string' ? Buffer.from(object, 'latin1') : object,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join(
    '',
  );
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}

/** A stream object's text: its dictionary entries, a /Length, and the data. */
export function streamObject(dictionary: string, data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${bytes.length} >>\nstream\n`, 'latin1'), bytes, Buffer.from('\nendstream', 'latin1')]);
}

/** The text on the page of `pdf()`: a stored copy of it still shows it. */
export const PDF_PAGE_TEXT = 'Ledgerline test document';

/** The four objects of `pdf()`: catalog (with `extra`), page tree, page, content stream. */
export const pdfObjects = (extra = ''): Array<string | Buffer> => [
  `<< /Type /Catalog /Pages 2 0 R ${extra} >>`,
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
  streamObject('', `BT /F1 24 Tf 72 700 Td (${PDF_PAGE_TEXT}) Tj ET`),
];

/**
 * A one-page PDF with a line of text, as a scanner or a word processor would write it; `extra`
 * goes into its catalog, `more` are further objects (numbered from 5).
 */
export function pdf(extra = '', more: Array<string | Buffer> = []): Buffer {
  return buildPdf([...pdfObjects(extra), ...more]);
}

export const file = (filename: string, contentType: string, content: Buffer): FilePart => ({ filename, contentType, content });
