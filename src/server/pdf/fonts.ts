import { createRequire } from 'node:module';
import { openSync } from 'fontkit';

/**
 * The font of every PDF the server makes (invoice, evidence pack; docs/product/billing.md §4 "any
 * script"; decision 048): DejaVu Sans from the `dejavu-fonts-ttf` package, embedded (subset) in
 * the file. It draws Latin, Latin Extended, Greek and Cyrillic, so `Łine`, `WO-Ž1`, `Траверса`
 * and `Στύλος` print as written. It has no CJK glyphs: those characters print as U+FFFD (�), a
 * visible mark, and the PDF says so (MSG.pdfUndrawable, added by its maker) — never a silent '?' or a blank.
 *
 * The files are found through Node's module resolution from this file, so the path holds under
 * `npm start` (tsx), Vitest and the file worker thread alike, wherever the app is installed.
 */
const require = createRequire(import.meta.url);
const file = (name: string) => require.resolve(`dejavu-fonts-ttf/ttf/${name}`);

/** The four faces pdfmake and pdfkit ask for, by file path. */
export const PDF_FONT_FILES = {
  normal: file('DejaVuSans.ttf'),
  bold: file('DejaVuSans-Bold.ttf'),
  italics: file('DejaVuSans-Oblique.ttf'),
  bolditalics: file('DejaVuSans-BoldOblique.ttf'),
} as const;

/** The mark a character the font cannot draw prints as. */
export const UNDRAWABLE_MARK = '\uFFFD';

let drawableSet: Set<number> | null = null;
/** Code points both the regular and the bold face draw (read once, ~6,000 of them). */
function drawableCodePoints(): Set<number> {
  if (!drawableSet) {
    const bold = new Set(openSync(PDF_FONT_FILES.bold).characterSet);
    drawableSet = new Set(openSync(PDF_FONT_FILES.normal).characterSet.filter((c) => bold.has(c)));
  }
  return drawableSet;
}

/**
 * Text as the PDF font can print it: each character it has no glyph for becomes UNDRAWABLE_MARK,
 * control characters a space. `onUndrawable` is called when anything was replaced, so the PDF can
 * add its note.
 */
export function drawable(text: string, onUndrawable?: () => void): string {
  const ok = drawableCodePoints();
  let out = '';
  let replaced = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x0a) out += ch;
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += ' ';
    else if (ok.has(cp)) out += ch;
    else {
      out += UNDRAWABLE_MARK;
      replaced = true;
    }
  }
  if (replaced) onUndrawable?.();
  return out;
}
