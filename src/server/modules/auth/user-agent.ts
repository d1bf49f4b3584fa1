/**
 * "Chrome 126" on "Android 14": what a person recognises their device by in the list of their
 * sessions (docs/product/sessions-and-safety.md §4). Only these two summaries are stored, not the raw header. A few lines
 * of rules rather than a parser library: the list needs the common browsers and systems, and an
 * unknown agent reads "Unknown browser" / "Unknown system" rather than anything wrong.
 */
export interface DeviceSummary {
  browser: string;
  system: string;
}

/** Checked in order: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\b(?:HeadlessChrome|Chrome|Chromium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:\.\d+)*.*\bSafari\//, 'Safari'],
];

function system(ua: string): string {
  let m: RegExpExecArray | null;
  if ((m = /\bAndroid (\d+(?:\.\d+)?)/.exec(ua))) return `Android ${m[1]}`;
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if ((m = /\b(iPhone|iPad|iPod)\b.*?\bOS (\d+)(?:_\d+)*/.exec(ua))) return `${m[1] === 'iPad' ? 'iPadOS' : 'iOS'} ${m[2]}`;
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return 'Unknown system';
}

export function summarizeUserAgent(header: string | undefined): DeviceSummary {
  const ua = (header ?? '').slice(0, 512);
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) return { browser: `${name} ${m[1]}`, system: system(ua) };
  }
  return { browser: 'Unknown browser', system: system(ua) };
}
