import zlib from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from 'pdf-lib';

// KYC PDFs are normalised before anyone judges them (ADR 016). A regex over the raw bytes missed
// `/Open#41ction` (a name escape) and anything inside a compressed object stream; pdf-lib parses
// the file as a reader would (names decoded, object streams unpacked, later revisions winning),
// every object it holds is inspected, and what is stored is a new file built from the pages alone
// and saved by pdf-lib: the uploaded bytes are never kept. A scanned document needs none of what is
// refused: JavaScript, actions of any kind (OpenAction, AA, Launch, URI, GoTo...), embedded or
// attached files, forms (AcroForm, XFA), multimedia.

export type PdfRefusal = 'active_content' | 'unreadable' | 'encrypted' | 'no_pages' | 'too_many_pages' | 'too_large';

export class PdfRefused extends Error {
  constructor(
    public readonly reason: PdfRefusal,
    detail: string,
  ) {
    super(detail);
  }
}

/** A KYC document has a few pages; more is refused rather than parsed at length. */
export const PDF_PAGES_MAX = 50;
/** What the file's compressed streams may inflate to, all together: a zip bomb is refused before parsing. */
export const PDF_INFLATED_BYTES_MAX = 256 * 1024 * 1024;

/** Keys that carry scripts, actions, forms or files wherever they appear. */
const ACTIVE_KEYS = new Set([
  'JS',
  'JavaScript',
  'OpenAction',
  'AA',
  'AcroForm',
  'XFA',
  'EmbeddedFiles',
  'EmbeddedFile',
  'EF',
  'RichMediaContent',
  'URI',
  'Launch',
]);
/** Every action type (PDF 2.0, 12.6.4): an action dictionary names its type in /S. */
const ACTION_TYPES = new Set([
  'GoTo',
  'GoToR',
  'GoToE',
  'GoToDp',
  'Launch',
  'Thread',
  'URI',
  'Sound',
  'Movie',
  'Hide',
  'Named',
  'SubmitForm',
  'ResetForm',
  'ImportData',
  'SetOCGState',
  'Rendition',
  'Trans',
  'GoTo3DView',
  'JavaScript',
  'RichMediaExecute',
]);
/** Types and annotation subtypes that are files, forms or players. */
const ACTIVE_TYPES = new Set(['Action', 'EmbeddedFile', 'Filespec', 'FileAttachment', 'Widget', 'Screen', 'Movie', 'Sound', 'RichMedia', '3D']);

/**
 * A name as a reader decodes it. pdf-lib decodes `#41` but not lower-case hex (`#6a`), which
 * readers accept; such a name is refused outright, since pdf-lib may have misread what it means
 * (an object stream it did not unpack, say).
 */
function readName(name: PDFName): string {
  const decoded = name.decodeText();
  if (/#[0-9a-fA-F]{2}/.test(decoded)) throw new PdfRefused('active_content', `a name with an escape the parser did not decode: ${decoded.slice(0, 40)}`);
  return decoded;
}

function inspectDict(dict: PDFDict, pending: PDFObject[]): void {
  for (const [key, value] of dict.entries()) {
    const name = readName(key);
    if (ACTIVE_KEYS.has(name)) throw new PdfRefused('active_content', `/${name}`);
    if (value instanceof PDFName) {
      const text = readName(value);
      if (name === 'S' && ACTION_TYPES.has(text)) throw new PdfRefused('active_content', `an action /S /${text}`);
      if ((name === 'Type' || name === 'Subtype') && ACTIVE_TYPES.has(text)) throw new PdfRefused('active_content', `/${name} /${text}`);
    }
    pending.push(value);
  }
}

/** Walks every object the parser holds (each indirect object, and what it contains directly). */
function assertNoActiveContent(document: PDFDocument): void {
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    const pending: PDFObject[] = [object];
    // A loop, not recursion: a hostile file may nest arrays thousands deep.
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (next instanceof PDFStream) inspectDict(next.dict, pending);
      else if (next instanceof PDFDict) inspectDict(next, pending);
      else if (next instanceof PDFArray) pending.push(...next.asArray());
      else if (next instanceof PDFName) {
        const text = readName(next);
        if (text === 'JavaScript' || text === 'JS') throw new PdfRefused('active_content', `/${text}`);
      }
    }
  }
}

/**
 * Refuses a file whose compressed streams would inflate past PDF_INFLATED_BYTES_MAX, before the
 * parser inflates its object streams in memory. Each `stream ... endstream` is tried as zlib data;
 * what is not zlib (JPEG scans) costs nothing.
 */
function assertInflatesModestly(bytes: Buffer): void {
  const text = bytes.toString('latin1');
  let budget = PDF_INFLATED_BYTES_MAX;
  const start = /stream\r?\n/g;
  for (let match = start.exec(text); match; match = start.exec(text)) {
    const from = match.index + match[0].length;
    const to = text.indexOf('endstream', from);
    if (to < 0) break;
    start.lastIndex = to + 'endstream'.length;
    try {
      budget -= zlib.inflateSync(bytes.subarray(from, to), { maxOutputLength: Math.max(1, budget), finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PdfRefused('too_large', 'compressed streams inflate too far');
    }
  }
}

async function parse(bytes: Uint8Array): Promise<PDFDocument> {
  let document: PDFDocument;
  try {
    // Encrypted files are loaded only to be refused by name (their strings and streams cannot be read).
    document = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true, ignoreEncryption: true });
  } catch (error) {
    throw new PdfRefused('unreadable', error instanceof Error ? error.message.slice(0, 200) : 'unreadable');
  }
  if (document.isEncrypted) throw new PdfRefused('encrypted', 'encrypted');
  return document;
}

/**
 * Parses an uploaded PDF, refuses it if anything in it is active, and answers the file to store:
 * a new document made of its pages only, saved by pdf-lib (no metadata, no revisions, no objects
 * the pages do not use). The result is parsed and inspected again before it is answered.
 */
export async function normalisePdf(bytes: Buffer): Promise<Buffer> {
  assertInflatesModestly(bytes);
  const source = await parse(bytes);
  assertNoActiveContent(source);
  const pageCount = source.getPageCount();
  if (pageCount === 0) throw new PdfRefused('no_pages', 'no pages');
  if (pageCount > PDF_PAGES_MAX) throw new PdfRefused('too_many_pages', `${pageCount} pages`);
  const rewritten = await PDFDocument.create({ updateMetadata: false });
  for (const page of await rewritten.copyPages(source, source.getPageIndices())) rewritten.addPage(page);
  const output = Buffer.from(await rewritten.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false }));
  assertNoActiveContent(await parse(output));
  return output;
}
