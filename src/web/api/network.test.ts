import { describe, expect, it } from 'vitest';
import { createNetwork, PROBE_FIRST_MS, PROBE_MAX_MS } from './network';

/** A clock the test moves by hand, and a probe whose answer the test sets. */
function rig(initiallyOnline: boolean) {
  const timers: { fn: () => void; at: number }[] = [];
  let now = 0;
  let serverAnswers = false;
  const probes: number[] = [];
  const net = createNetwork({
    initiallyOnline,
    probe: async () => {
      probes.push(now);
      return serverAnswers;
    },
    setTimer: (fn, ms) => {
      const t = { fn, at: now + ms };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => timers.splice(timers.indexOf(h as (typeof timers)[number]), 1),
  });
  const seen: boolean[] = [];
  net.subscribe((o) => seen.push(o));
  return {
    net,
    seen,
    probes,
    answer: (ok: boolean) => (serverAnswers = ok),
    pending: () => timers.length,
    /** Runs every timer due within ms, in order, letting each probe settle. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.fn();
        await new Promise((r) => setTimeout(r, 0));
      }
      now = end;
    },
  };
}

describe('the network state', () => {
  it('goes offline when a call cannot reach the server, and back when any call is answered', () => {
    const r = rig(true);
    r.net.unreachable();
    expect(r.net.isOnline()).toBe(false);
    r.net.unreachable();
    r.net.reached();
    expect(r.net.isOnline()).toBe(true);
    expect(r.seen).toEqual([false, true]);
    expect(r.pending()).toBe(0);
  });

  it('while offline, probes the server, less and less often, until it answers', async () => {
    const r = rig(true);
    r.net.unreachable();
    await r.advance(PROBE_FIRST_MS);
    expect(r.probes).toEqual([PROBE_FIRST_MS]);
    await r.advance(60_000);
    const gaps = r.probes.slice(1).map((t, i) => t - r.probes[i]);
    expect(gaps[0]).toBe(3_000);
    expect(Math.max(...gaps)).toBe(PROBE_MAX_MS);
    expect(r.net.isOnline()).toBe(false);
    r.answer(true);
    await r.advance(PROBE_MAX_MS);
    expect(r.net.isOnline()).toBe(true);
    expect(r.seen).toEqual([false, true]);
    const count = r.probes.length;
    await r.advance(60_000);
    expect(r.probes.length).toBe(count);
  });

  it('starts probing at once when the page opens without a network, and starts over fast next time', async () => {
    const r = rig(false);
    r.answer(true);
    await r.advance(PROBE_FIRST_MS);
    expect(r.net.isOnline()).toBe(true);
    r.answer(false);
    r.net.unreachable();
    await r.advance(PROBE_FIRST_MS);
    expect(r.probes).toEqual([PROBE_FIRST_MS, 2 * PROBE_FIRST_MS]);
  });
});
