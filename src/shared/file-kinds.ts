import { UPLOAD_RULES, type UploadKind } from './uploads';

/**
 * docs/product/sessions-and-safety.md §10 "file kinds": what a file is, by its first bytes, not by its name or the type the
 * browser claimed (both are the sender's word: HTML bytes were stored as a work packet). Pure,
 * so the web may use it too; the server checks every upload with it when it is attached.
 */
export type SniffedKind = 'pdf' | 'jpeg' | 'png' | 'gif' | 'webp' | 'avif' | 'zip' | 'ole' | 'markup' | 'text' | 'unknown';

/** How many first bytes the check reads. */
export const SNIFF_BYTES = 1024;

const IMAGE_KINDS: readonly SniffedKind[] = ['jpeg', 'png', 'gif', 'webp', 'avif'];

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

export function sniffFileKind(b: Uint8Array): SniffedKind {
  if (ascii(b, 0, 5) === '%PDF-') return 'pdf';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (ascii(b, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 12))) return 'avif';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0])) return 'ole';
  if (b.length === 0 || b.includes(0)) return 'unknown';
  // Text: markup when its first visible character opens a tag (HTML, XML, SVG).
  let i = startsWith(b, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (i < b.length && [0x20, 0x09, 0x0a, 0x0d].includes(b[i])) i++;
  return b[i] === 0x3c /* < */ ? 'markup' : 'text';
}

/** In words a person uses, for the refusal. */
export const SNIFFED_WORDS: Record<SniffedKind, string> = {
  pdf: 'a PDF',
  jpeg: 'a JPEG photo',
  png: 'a PNG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  avif: 'an AVIF image',
  zip: 'a zip archive (such as a Word document or an Excel workbook)',
  ole: 'an old Office file (.doc or .xls)',
  markup: 'a web page or other markup (HTML, XML or SVG)',
  text: 'a text file',
  unknown: 'a file of a kind that cannot be read here',
};

/**
 * Whether the bytes may be stored as an upload of `kind`: a packet or document is a PDF or a
 * photo of the paper, a ticket photo an image. Workbooks are checked where they are read (the
 * import: a zip holding xl/workbook.xml, or a CSV; .xls and .ods named by their own message).
 */
export function acceptsSniffed(kind: Exclude<UploadKind, 'excel'>, sniffed: SniffedKind): boolean {
  if (IMAGE_KINDS.includes(sniffed)) return true;
  return kind !== 'media' && sniffed === 'pdf';
}

/** A zip that is not a workbook (a Word document, a zipped folder): what the 415 says it is. */
export const ZIP_WITHOUT_WORKBOOK = 'a zip archive without a workbook in it';

/** The 415 answer: what was expected, and what the file turned out to be (a kind, or words). */
export function wrongKindMessage(what: string, kind: UploadKind, found: SniffedKind | { words: string }): string {
  const expected = UPLOAD_RULES[kind].describe;
  const words = typeof found === 'string' ? SNIFFED_WORDS[found] : found.words;
  return `The ${what} must be ${expected}, but this file is ${words}. Upload ${expected} instead.`;
}
