// Draws the app's PNG icons from the favicon's shapes (run once: `node scripts/make-icons.mjs`;
// the PNGs are committed). The manifest needs 192 and 512 px icons and one "maskable" icon whose
// artwork stays inside the central 80 % safe zone, since launchers crop it to a circle or squircle.
import sharp from 'sharp';

const mark = (size, inset) => {
  const s = size - 2 * inset;
  const k = s / 32;
  return `<g transform="translate(${inset} ${inset}) scale(${k})"><path d="M16 5v22M9 9h14M11 13h10" stroke="#fff" stroke-width="2.5" stroke-linecap="round" fill="none"/></g>`;
};
const icon = (size, { maskable }) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
  (maskable ? `<rect width="${size}" height="${size}" fill="#1864ab"/>` : `<rect width="${size}" height="${size}" rx="${size * 0.19}" fill="#1864ab"/>`) +
  mark(size, maskable ? size * 0.2 : size * 0.06) +
  '</svg>';

for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  await sharp(Buffer.from(icon(size, { maskable }))).png({ compressionLevel: 9 }).toFile(`src/web/public/icons/${name}`);
}
