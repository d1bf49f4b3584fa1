import Supercluster from 'supercluster';
import { describe, expect, it } from 'vitest';
import { boundsOf, byDrawOrder, CLUSTER_OPTIONS, clusterInput, clusterLabel, mapCountText, toMapPoints, type ClusterProps, type ClusterSums, type MappableTicket } from './mapPoints';

const t = (id: number, geo_lat: number | null, geo_lon: number | null, over: Partial<MappableTicket> = {}): MappableTicket => ({
  id,
  pole_name: `P-${id}`,
  line_name: '3',
  status: 'Pending',
  due_date: null,
  geo_lat,
  geo_lon,
  ...over,
});

describe('map points (docs/product/map.md §1)', () => {
  it('one point per ticket with both coordinates, with its state and title', () => {
    const rows = [
      t(1, 42.1, -72.5),
      t(2, null, -72.5),
      t(3, 42.2, null),
      t(4, 0, 0, { status: 'Complete', due_date: '2020-01-01' }),
      t(5, 42.3, -72.6, { due_date: '2026-11-22', pole_name: null }),
    ];
    const points = toMapPoints(rows, '2026-11-23');
    expect(points).toEqual([
      { id: 1, lat: 42.1, lon: -72.5, state: 'Pending', title: 'Pole P-1 · Line 3' },
      { id: 4, lat: 0, lon: 0, state: 'Complete', title: 'Pole P-4 · Line 3' },
      { id: 5, lat: 42.3, lon: -72.6, state: 'Overdue', title: 'Pole -- · Line 3' },
    ]);
    expect(mapCountText(points.length, rows.length)).toBe('3 of 5 poles on the map');
    expect(mapCountText(0, 1)).toBe('0 of 1 pole on the map');
  });

  it('overdue points are drawn last (on top)', () => {
    const points = toMapPoints([t(1, 1, 1, { due_date: '2000-01-01' }), t(2, 1, 1, { status: 'Complete' }), t(3, 1, 1)], '2026-11-23');
    expect([...points].sort(byDrawOrder).map((p) => p.state)).toEqual(['Complete', 'Pending', 'Overdue']);
  });

  it('clustering input is [lon, lat], names its point and counts it when overdue', () => {
    const points = toMapPoints([t(1, 42.1, -72.5), t(2, 42.1001, -72.5001, { due_date: '2020-01-01' })], '2026-11-23');
    const features = clusterInput(points);
    expect(features.map((f) => f.geometry.coordinates)).toEqual([
      [-72.5, 42.1],
      [-72.5001, 42.1001],
    ]);
    expect(features.map((f) => f.properties)).toEqual([
      { i: 0, overdue: 0 },
      { i: 1, overdue: 1 },
    ]);
  });

  it('nearby poles cluster when zoomed out, with their count and overdue count, and part when zoomed in', () => {
    // Two poles ~13 m apart (overdue, pending), one far away, one pending 1 km off the pair.
    const rows = [t(1, 42.1, -72.5, { due_date: '2020-01-01' }), t(2, 42.1001, -72.5001), t(3, 45, -70), t(4, 42.109, -72.5)];
    const points = toMapPoints(rows, '2026-11-23');
    const index = new Supercluster<ClusterProps, ClusterSums>(CLUSTER_OPTIONS).load(clusterInput(points));
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    const clusters = (z: number) => index.getClusters(world, z).filter((f) => 'cluster' in f.properties);

    // Zoom 10 (~150 m a pixel here): the three poles near each other are one cluster.
    expect(clusters(10).map((f) => f.properties)).toEqual([expect.objectContaining({ point_count: 3, overdue: 1 })]);
    // Zoom 14 (~7 m a pixel): 1 km is ~140 px apart, over the 60 px radius; the pair still merges.
    expect(clusters(14).map((f) => f.properties)).toEqual([expect.objectContaining({ point_count: 2, overdue: 1 })]);
    const pair = clusters(14)[0];
    expect(index.getClusterExpansionZoom(Number(pair.id))).toBeGreaterThan(14);
    // From zoom 17 on every pole stands alone.
    expect(clusters(17)).toEqual([]);
    expect(index.getClusters(world, 17)).toHaveLength(4);
    expect(clusterLabel(3, 1)).toBe('3 poles here, 1 overdue: zoom in');
    expect(clusterLabel(2, 0)).toBe('2 poles here: zoom in');
  });

  it('the box around the points', () => {
    expect(boundsOf([])).toBeNull();
    expect(boundsOf([{ lat: 42, lon: -72 }, { lat: 41, lon: -71 }, { lat: 43, lon: -73 }])).toEqual([
      [41, -73],
      [43, -71],
    ]);
  });
});
