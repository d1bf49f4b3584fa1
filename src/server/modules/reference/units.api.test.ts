import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';

const t = await createTestApp();
const API = '/api/v1';
let admin: string, lineman: string, otherAdmin: string;

beforeAll(async () => {
  [admin, lineman, otherAdmin] = await t.loginAs('admin', 'lineman', 'other');
});

const search = (token: string | undefined, q: string) => t.request({ method: 'GET', url: `${API}/units${q}`, token });

describe('GET /units', () => {
  it('requires authentication', async () => {
    expect((await search(undefined, '?search=a')).statusCode).toBe(401);
  });

  it('finds units by code or description, case-insensitively, for any role', async () => {
    const all = (await search(lineman, '')).json() as { code: string; description: string }[];
    expect(all.length).toBeGreaterThan(0);
    const sample = all[0];
    const byCode = (await search(lineman, `?search=${encodeURIComponent(sample.code.toLowerCase())}`)).json() as { code: string }[];
    expect(byCode.map((u) => u.code)).toContain(sample.code);
    const word = sample.description.split(/\s+/).find((w) => w.length > 3)!;
    const byDesc = (await search(admin, `?search=${encodeURIComponent(word.toUpperCase())}`)).json() as { code: string; description: string }[];
    expect(byDesc.map((u) => u.code)).toContain(sample.code);
    expect(byDesc.every((u) => `${u.code} ${u.description}`.toLowerCase().includes(word.toLowerCase()))).toBe(true);
  });

  it("never shows another company's units and filters by utility", async () => {
    const mine = (await search(admin, '?search=OTHER-1')).json() as unknown[];
    expect(mine).toEqual([]);
    const theirs = (await search(otherAdmin, '?search=other-1')).json() as { code: string; utility_id: number }[];
    expect(theirs.map((u) => u.code)).toEqual(['OTHER-1']);
    const utilityId = theirs[0].utility_id;
    expect((await search(otherAdmin, `?utility_id=${utilityId + 100000}`)).json()).toEqual([]);
  });

  it('rejects a bad utility id and over-long text with 400, and treats % and _ as text', async () => {
    expect((await search(admin, '?utility_id=abc')).statusCode).toBe(400);
    expect((await search(admin, `?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await search(admin, '?search=%25')).json()).toEqual([]);
  });
});
