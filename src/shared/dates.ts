/**
 * Date rules of docs/product/rules.md §1.2, rules.md §1.3 and docs/product/rules.md §1.3: due dates are calendar dates (YYYY-MM-DD) that must
 * never shift a day through UTC conversion, so they are handled as strings, not Date objects.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{1,4})$/;

function isValidYmd(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const monthLengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= monthLengths[m - 1];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * What may follow a date in an ISO timestamp: a time of day that exists (00:00 to 23:59:59, with
 * optional fraction and zone). The date is what is kept; an impossible time such as
 * `2026-12-31T25:00` means the value is wrong, so the whole value is refused, not read as its date.
 */
const ISO_TIME = /^[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?$/;

function isValidTimeSuffix(rest: string): boolean {
  const m = ISO_TIME.exec(rest);
  if (!m) return false;
  const [hh, mm, ss, zh, zm] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  return hh <= 23 && mm <= 59 && ss <= 59 && zh <= 23 && zm <= 59;
}

/** Normalise 'YYYY-MM-DD', 'MM/DD/YYYY', an ISO timestamp or a Date to 'YYYY-MM-DD'; null if invalid. */
export function toIsoDate(value: unknown): string | null {
  if (value == null || value === '') return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  const s = String(value).trim();
  let m = ISO_DATE.exec(s.slice(0, 10));
  if (m && (s.length === 10 || isValidTimeSuffix(s.slice(10)))) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return isValidYmd(y, mo, d) ? `${m[1]}-${m[2]}-${m[3]}` : null;
  }
  m = US_DATE.exec(s);
  if (m) {
    const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return isValidYmd(y, mo, d) ? `${pad(y, 4)}-${pad(mo)}-${pad(d)}` : null;
  }
  return null;
}

/** An Excel serial day number (1900 date system) to 'YYYY-MM-DD'. */
export function excelSerialToIsoDate(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1) return null;
  const ms = Math.round((serial - 25569) * 86_400_000);
  return toIsoDate(new Date(ms));
}

/** 'YYYY-MM-DD' → 'MM/DD/YYYY' for the calendar inputs. */
export function isoToUs(iso: string | null | undefined): string {
  const d = toIsoDate(iso);
  if (!d) return '';
  const [y, m, day] = d.split('-');
  return `${m}/${day}/${y}`;
}

/** Today plus one month, as 'YYYY-MM-DD' in the viewer's local calendar (docs/product/rules.md §6). */
export function defaultDueDate(today = new Date()): string {
  const d = new Date(today.getFullYear(), today.getMonth() + 1, today.getDate());
  // 31 Jan + 1 month overflows into March in JS; clamp to the month's last day instead.
  if (d.getDate() !== today.getDate()) d.setDate(0);
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Made on first use, not as the module loads: the first Intl.DateTimeFormat of a page loads the
 * runtime's date data (~40 ms on a desktop), and this module is in every page's first chunk,
 * evaluated before the router asks for the page's code (decision 061).
 */
const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const LONG = once(() => new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }));
const LONG_2DAY = once(() => new Intl.DateTimeFormat('en-US', { month: 'long', day: '2-digit', year: 'numeric' }));

/**
 * 'November 22, 2026' or '--' (docs/product/rules.md §1.3 Date Completed). A calendar date is shown as itself;
 * a timestamp as its date in the viewer's time zone.
 */
export function formatLongDate(value: string | Date | null | undefined): string {
  if (value == null || value === '') return '--';
  const iso = typeof value === 'string' && ISO_DATE.test(value) ? value : null;
  if (iso) return LONG().format(new Date(`${iso}T00:00:00Z`));
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '--';
  return new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(d);
}

/** Crew 'Date Added': long month, 2-digit day, year. */
export function formatLongDate2Day(value: string | Date | null | undefined): string {
  if (value == null || value === '') return '--';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '--' : LONG_2DAY().format(d);
}

/**
 * One formatter per time zone, made on first use: a new Intl.DateTimeFormat per call made a call
 * ~17× slower (measured), and the evidence pack formats ~16,000 instants of one zone (decision
 * 055). A zone the runtime does not know throws here, as before, and is not kept. Zones are the
 * companies' (a few hundred IANA names at most), so the map stays small.
 */
const ZONE_FORMATS = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = ZONE_FORMATS.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    ZONE_FORMATS.set(timeZone, f);
  }
  return f;
}

/** 'YYYY-MM-DD HH:MM:SS' in the given IANA time zone (export completion date, docs/product/rules.md §1.3). */
export function formatDateTimeInZone(value: string | Date | null | undefined, timeZone: string): string {
  if (value == null || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const parts = Object.fromEntries(
    zoneFormat(timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
