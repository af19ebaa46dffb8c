import fs from 'node:fs';
import path from 'node:path';
import { parseAnchorLine } from './format';

// ANCHOR_FILE: one anchor per line, appended, never rewritten (ADR 014). Only the anchor writer
// appends, one process at a time (an advisory lock, anchors/service.ts).

export interface AnchorFileLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
}

/** Every line of the file (none when it does not exist yet). A last line without its newline is a line too. */
export function readAnchorFile(file: string): AnchorFileLine[] {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`ANCHOR_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  const texts = content.split('\n');
  if (texts.at(-1) === '') texts.pop();
  return texts.map((text, index) => ({ number: index + 1, text }));
}

/** The highest seq among the file's well-formed lines (0 for none): the next anchor follows it even if the database lost a row. */
export function lastSeqInFile(file: string): number {
  let last = 0;
  for (const line of readAnchorFile(file)) {
    const parsed = parseAnchorLine(line.text);
    if ('anchor' in parsed) last = Math.max(last, parsed.anchor.seq);
  }
  return last;
}

function fsyncDirectory(directory: string): void {
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends one line with a single write in append mode and waits until it is on disk (fsync; the
 * directory too when the file was created). A previous line left without its newline (a crash
 * mid-write) stays on a line of its own, where verify reports it.
 */
export function appendAnchorLine(file: string, line: string): void {
  if (line.includes('\n')) throw new Error('an anchor line is one line');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const created = !fs.existsSync(file);
  const fd = fs.openSync(file, 'a+', 0o644);
  try {
    const size = fs.fstatSync(fd).size;
    let torn = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      torn = last.toString() !== '\n';
    }
    fs.writeSync(fd, `${torn ? '\n' : ''}${line}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (created) fsyncDirectory(path.dirname(file));
}

/** At start: the file's directory exists (or can be made) and the file can be appended to; else an error naming ANCHOR_FILE. */
export function checkAnchorFile(file: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (fs.existsSync(file)) {
      if (!fs.statSync(file).isFile()) throw new Error('it is not a regular file');
      fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    } else {
      fs.accessSync(path.dirname(file), fs.constants.W_OK);
    }
  } catch (error) {
    throw new Error(`ANCHOR_FILE: cannot append to ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}
