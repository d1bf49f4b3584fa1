import { describe, expect, it } from 'vitest';
import { mapConfigReply } from '../../../shared/map.schemas';
import { createTestApp } from '../../test/harness';

/** GET /map/config (docs/product/map.md §4 base map): what the browser needs to draw the base layer. */
const t = await createTestApp();

describe('GET /map/config', () => {
  it('gives every signed-in role the tile template, its attribution and deepest zoom (OpenStreetMap by default)', async () => {
    for (const role of ['admin', 'lineman', 'apprentice'] as const) {
      const [token] = await t.loginAs(role);
      const res = await t.request({ method: 'GET', url: '/api/v1/map/config', token });
      expect(res.statusCode, role).toBe(200);
      expect(mapConfigReply.strict().parse(res.json())).toEqual({
        tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap contributors',
        max_zoom: 19,
      });
    }
  });

  it('answers 401 signed out', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/map/config' })).statusCode).toBe(401);
  });

  it('gives what MAP_STYLE_URL, MAP_ATTRIBUTION and MAP_MAX_ZOOM say', async () => {
    const own = await createTestApp({
      env: { MAP_STYLE_URL: 'https://{s}.tiles.example.net/{z}/{x}/{y}{r}.png', MAP_ATTRIBUTION: 'Tiles © Example & friends', MAP_MAX_ZOOM: '18' },
    });
    const [token] = await own.loginAs('foreman');
    const res = await own.request({ method: 'GET', url: '/api/v1/map/config', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tile_url: 'https://{s}.tiles.example.net/{z}/{x}/{y}{r}.png', attribution: 'Tiles © Example & friends', max_zoom: 18 });
  });

  it('is documented in the OpenAPI document, with the map exports', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, { get?: { responses?: Record<string, unknown> } }>;
    for (const p of ['/api/v1/map/config', '/api/v1/jobs/{id}/geojson', '/api/v1/jobs/{id}/kml']) expect(Object.keys(paths)).toContain(p);
    expect(paths['/api/v1/jobs/{id}/geojson'].get?.responses).toHaveProperty('200');
  });
});
