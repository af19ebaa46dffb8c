import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

// Text on the bank's PDFs (statements, the trial balance), in one place: which font writes a text,
// at which baseline, and how a text is cut to a width.

/**
 * Helvetica's built-in encoding (WinAnsi) has Latin-1 and a few typographic marks: a text made of
 * those alone is written in Helvetica (its metrics ship inside pdfkit, nothing is embedded, and the
 * text stays readable in the file's bytes). A text with anything else ("Łukasz", "Ševčík", a name in
 * Greek or Cyrillic) is written in DejaVu Sans, shipped by the dejavu-fonts-ttf package and embedded
 * as a subset of the glyphs used; a character neither font has (Chinese, an emoji) prints as "?".
 * Control characters print as spaces.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code < 0xa0);
const inWinAnsi = (char: string, code: number) => (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);

export type Weight = 'regular' | 'bold';
const HELVETICA: Record<Weight, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold' };
const dejaVuDirectory = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const DEJAVU: Record<Weight, { name: string; file: string }> = {
  regular: { name: 'DejaVuSans', file: path.join(dejaVuDirectory, 'DejaVuSans.ttf') },
  bold: { name: 'DejaVuSans-Bold', file: path.join(dejaVuDirectory, 'DejaVuSans-Bold.ttf') },
};
let dejaVuGlyphs: fontkit.Font | undefined;
/** Whether DejaVu Sans draws this character (both weights cover the same characters). */
function inDejaVu(code: number): boolean {
  dejaVuGlyphs ??= fontkit.openSync(DEJAVU.regular.file) as fontkit.Font;
  return dejaVuGlyphs.hasGlyphForCodePoint(code);
}

/** The text as Helvetica writes it, or null when it has a character beyond WinAnsi. */
function asWinAnsi(text: string): string | null {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    if (isControl(code)) out += ' ';
    else if (inWinAnsi(char, code)) out += char;
    else return null;
  }
  return out;
}

/** The font a text is written in, and the text as that font writes it. */
export function typeset(text: string, weight: Weight): { font: string; text: string } {
  const winAnsi = asWinAnsi(text);
  if (winAnsi !== null) return { font: HELVETICA[weight], text: winAnsi };
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    out += isControl(code) ? ' ' : inDejaVu(code) ? char : '?';
  }
  return { font: DEJAVU[weight].name, text: out };
}

/** A document metadata string (Title, Author): pdfkit writes any character there; control characters become spaces. */
export const printableMetadata = (text: string) => Array.from(text, (char) => (isControl(char.codePointAt(0) ?? 0) ? ' ' : char)).join('');

type Doc = PDFKit.PDFDocument;

/** Makes DejaVu Sans known to the document (embedded only if a text needs it). */
export function registerFonts(doc: Doc): void {
  for (const font of Object.values(DEJAVU)) doc.registerFont(font.name, font.file);
}

/** Helvetica's ascender (its AFM's): where pdfkit puts a line's baseline below the y it is given. */
const HELVETICA_ASCENDER = 718;
const styles = new WeakMap<Doc, { weight: Weight; sizePt: number }>();
/** The weight and size of what is written next; write and fit pick the typeface of each text (typeset). */
export function style(doc: Doc, weight: Weight, sizePt: number): Doc {
  styles.set(doc, { weight, sizePt });
  return doc.font(HELVETICA[weight]).fontSize(sizePt);
}

/**
 * Sets the font that writes this text; answers the text as that font writes it, and the options
 * that put its baseline where Helvetica's would be (DejaVu's ascender is taller).
 */
function setFor(doc: Doc, text: string): { text: string; baseline?: number } {
  const { weight, sizePt } = styles.get(doc) ?? { weight: 'regular', sizePt: 12 };
  const set = typeset(text, weight);
  doc.font(set.font);
  return set.font === HELVETICA[weight] ? { text: set.text } : { text: set.text, baseline: -((HELVETICA_ASCENDER * sizePt) / 1000) };
}

export function write(doc: Doc, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): void {
  const set = setFor(doc, text);
  doc.text(set.text, x, y, { lineBreak: false, ...options, ...(set.baseline === undefined ? {} : { baseline: set.baseline }) });
}

/**
 * The text cut to fit the width, with an ellipsis where it was cut (never inside a character). A
 * longer start is never narrower, so the longest start that fits is found by halving (a 500-character
 * description on a 5,000-line statement is measured about ten times, not hundreds).
 */
export function fit(doc: Doc, text: string, width: number): string {
  const fits = (candidate: string) => doc.widthOfString(setFor(doc, candidate).text) <= width;
  if (fits(text)) return text;
  const characters = [...text];
  const cut = (end: number) => `${characters.slice(0, end).join('')}…`;
  let low = 0;
  let high = characters.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(cut(middle))) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}
