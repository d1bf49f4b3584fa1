// fontkit (pdfkit's font reader) ships no types; only what pdf/fonts.ts uses.
declare module 'fontkit' {
  interface Font {
    /** Every Unicode code point the font has a glyph for. */
    characterSet: number[];
  }
  export function openSync(path: string): Font;
}
