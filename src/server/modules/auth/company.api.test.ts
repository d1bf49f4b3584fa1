import { describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { createTestApp } from '../../test/harness';

/** The company's time zone (docs/product/records.md §3 "daily digest", decision 046): read by all, changed by an Admin. */
const t = await createTestApp();
const [admin, office, lineman] = await t.loginAs('admin', 'office', 'lineman');
const otherAdmin = await t.login('admin@other.example.com');

describe('company settings', () => {
  it('reads the company with its time zone (default America/New_York), for every role', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/company', token: lineman });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ company: { id: expect.any(Number), name: 'Demo Line Co', time_zone: 'America/New_York', evidence_radius_m: 100, evidence_photos_required: 1 } });
  });

  it('an Admin changes the time zone; it is stored under its canonical name, for that company only', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/v1/company', token: admin, body: { time_zone: 'US/Pacific' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().company.time_zone).toBe('America/Los_Angeles');
    expect((await t.request({ method: 'GET', url: '/api/v1/company', token: office })).json().company.time_zone).toBe('America/Los_Angeles');
    expect((await t.request({ method: 'GET', url: '/api/v1/company', token: otherAdmin })).json().company).toMatchObject({ name: 'Other Line Co', time_zone: 'America/New_York' });
  });

  it('refuses a name that is not a time zone with a 400 naming the field', async () => {
    for (const time_zone of ['Mars/Olympus_Mons', '', 'America/New York', '../etc/passwd', 'x'.repeat(65)]) {
      const res = await t.request({ method: 'PUT', url: '/api/v1/company', token: admin, body: { time_zone } });
      expect(res.statusCode, time_zone).toBe(400);
      expect(res.json().error).toContain(MSG.timeZoneInvalid);
    }
  });

  it('an Office Manager may not change it (403), and nothing changes', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/v1/company', token: office, body: { time_zone: 'Europe/Berlin' } });
    expect(res.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/company', token: admin })).json().company.time_zone).toBe('America/Los_Angeles');
  });
});
