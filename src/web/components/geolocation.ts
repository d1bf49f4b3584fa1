import type { LatLon } from '../../shared/distance';

/** Where the phone is, with how sure it is (metres, 95 %), as the Geolocation API tells. */
export interface Position extends LatLon {
  accuracy: number;
}

/** The Geolocation API's refusals, in words a crew can act on. */
function reason(err: GeolocationPositionError | null): string {
  if (err?.code === 1) return 'Location is blocked for this site. Allow it in the browser’s site settings, then try again.';
  if (err?.code === 3) return 'Your location took too long to find. Try again, outdoors if you can.';
  return 'Your location could not be found. Check that location is on, then try again.';
}

/**
 * Asks for the phone's position once, only when the person asked for it (a button, or choosing
 * Nearest first): the browser's permission prompt then follows their own action. High accuracy,
 * since a pole is a few metres wide; a fix up to a minute old is good enough.
 */
export function currentPosition(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      reject(new Error('This browser cannot tell your location.'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude, accuracy: p.coords.accuracy }),
      (err) => reject(new Error(reason(err))),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  });
}

/**
 * The phone's position only when the site may already read it (the person allowed it before, on
 * My Work's map or "Use my location"): never a permission prompt in the middle of taking a photo.
 * Null when not allowed, unknown or too slow (a photo is never held up for long by it).
 */
export async function grantedPosition(timeoutMs = 10_000): Promise<Position | null> {
  try {
    if (typeof navigator === 'undefined' || !navigator.geolocation || !navigator.permissions) return null;
    const { state } = await navigator.permissions.query({ name: 'geolocation' });
    if (state !== 'granted') return null;
    return await new Promise<Position | null>((resolve) =>
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude, accuracy: p.coords.accuracy }),
        () => resolve(null),
        { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
      ),
    );
  } catch {
    return null;
  }
}

/**
 * Where the phone is at the moment a crew taps Mark complete (docs/product/records.md §6): asked
 * at the tap (the person's own action, so a first-time prompt follows it), with a short timeout
 * and a fix at most 30 s old. Never holds completing up: refused, unavailable or too slow is null,
 * and the ticket is completed without a position.
 */
export function positionAtTap(timeoutMs = 5_000): Promise<Position | null> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    // The browser's own timeout does not count the time its permission prompt stays open.
    const giveUp = setTimeout(() => resolve(null), timeoutMs + 1_000);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        clearTimeout(giveUp);
        resolve({ lat: p.coords.latitude, lon: p.coords.longitude, accuracy: p.coords.accuracy });
      },
      () => {
        clearTimeout(giveUp);
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 30_000 },
    );
  });
}
