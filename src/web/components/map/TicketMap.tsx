import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import Supercluster from 'supercluster';
import { Button, Center, Group, Stack, Text } from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { Spinner } from '../Spinner';
import { distanceMeters, type LatLon } from '../../../shared/distance';
import type { MapConfig } from '../../../shared/map.schemas';
import { localIsoDay } from '../../../shared/ticket-state';
import { useMapConfig } from '../../api/mapConfig';
import type { Position } from '../geolocation';
import {
  boundsOf,
  byDrawOrder,
  CLUSTER_OPTIONS,
  clusterInput,
  clusterLabel,
  mapCountText,
  POINT_STYLE,
  toMapPoints,
  type ClusterProps,
  type ClusterSums,
  type MappableTicket,
  type MapPoint,
} from './mapPoints';
import classes from './TicketMap.module.css';

/**
 * The ticket map (docs/product/map.md §1), loaded on demand (MapView imports it lazily, so Leaflet,
 * supercluster and this code never weigh on the job and My Work pages until someone picks Map).
 *
 * Speed for a job of 5,000 poles: supercluster indexes the points once per list (a few ms), and
 * each move draws only what the view holds — clusters as a handful of DOM markers, single points
 * as circle markers on one canvas (no DOM node per pole).
 *
 * Accessibility: the map is a labelled region with a visible count; its clusters are buttons
 * (Tab, Enter zooms in). A single point is drawn on the canvas, and a transparent button of its
 * size lies over it for the keyboard (decision 042): named "Pole P-1 · Line 3 · Pending", reached
 * with Tab in the list's order, Enter or Space opens the ticket as a click does, and focus shows
 * a ring and the point's tooltip. The mouse passes through it to the canvas (tooltip, click,
 * drag). These buttons exist only for the points in view (clustering keeps them to a few dozen),
 * not one per pole. The list beside the map (same tickets, same filters) stays the way through
 * every ticket at once.
 */

const DEFAULT_CENTER: L.LatLngTuple = [39.5, -98.35]; // the contiguous United States, when nothing is known
const FIT_MAX_ZOOM = 17;
/** A base map that failed is asked for again on a move this long after (or when back online). */
const BASE_MAP_RETRY_MS = 30_000;

/** Leaflet's canvas internals the letter is drawn with (1.9.x; the dot still draws without them). */
interface CanvasInternals {
  _ctx?: CanvasRenderingContext2D;
  _drawing?: boolean;
}
type PathInternals = { _updatePath(this: L.CircleMarker): void };

/**
 * A circle marker with a letter in it (P, C, !): the state reads without colour (WCAG 1.4.1). It
 * draws its circle as Leaflet does, then the letter on the same canvas, in the same pass.
 */
class LetterMarker extends L.CircleMarker {
  constructor(
    at: L.LatLngExpression,
    options: L.CircleMarkerOptions,
    private readonly letter: string,
  ) {
    super(at, options);
  }
  _updatePath() {
    (L.CircleMarker.prototype as unknown as PathInternals)._updatePath.call(this);
    const renderer = (this as unknown as { _renderer?: CanvasInternals })._renderer;
    const ctx = renderer?._ctx;
    const at = (this as unknown as { _point?: L.Point })._point;
    if (!renderer?._drawing || !ctx || !at) return;
    const r = this.getRadius();
    ctx.save();
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#fff';
    ctx.font = `700 ${Math.round(r * 1.15)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(this.letter, at.x, at.y + 1);
    ctx.restore();
  }
}

export interface TicketMapProps {
  /** The list's rows, after its filters and search: those with coordinates become points. */
  rows: readonly MappableTicket[];
  /** The map region's name for screen readers. */
  label: string;
  /** The fit button's words: "Fit to job", "Fit to my tickets". */
  fitLabel: string;
  onOpen: (id: number) => void;
  /** When given, a point may be dragged (with a mouse); resolves whether the move was saved. */
  onMove?: (id: number, to: LatLon) => Promise<boolean>;
  /** The phone's position, once the person asked for it. */
  position?: Position | null;
}

/** "Pole P-1 · Line 3 · Pending": a point's tooltip and its name for a screen reader. */
const pointLabel = (p: MapPoint) => `${p.title} · ${p.state}`;

function legendDot(color: string, letter: string, r: number) {
  const size = 2 * r + 4;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden>
      <circle cx={size / 2} cy={size / 2} r={r} fill={color} stroke="#fff" strokeWidth={2} />
      <text x={size / 2} y={size / 2 + 1} fill="#fff" fontSize={Math.round(r * 1.15)} fontWeight={700} textAnchor="middle" dominantBaseline="middle">
        {letter}
      </text>
    </svg>
  );
}

/**
 * A map of tickets with its count: "N of M poles on the map", M the rows given (what the list
 * shows after its filters and search), N those with coordinates. The rows are the list's own,
 * so every filter of the list applies to the map too.
 */
export default function TicketMap({ rows, ...props }: TicketMapProps) {
  const config = useMapConfig();
  const today = localIsoDay();
  const points = useMemo(() => toMapPoints(rows, today), [rows, today]);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} aria-live="polite" data-testid="map-count">
        {mapCountText(points.length, rows.length)}
      </Text>
      {config.data ? (
        <LeafletMap key={config.data.tile_url} config={config.data} points={points} {...props} />
      ) : (
        <Center h={320}>
          <Spinner label="Loading the map" />
        </Center>
      )}
    </Stack>
  );
}

function LeafletMap({
  points,
  config,
  label,
  fitLabel,
  onOpen,
  onMove,
  position,
}: Omit<TicketMapProps, 'rows'> & { points: MapPoint[]; config: MapConfig }) {
  const box = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const renderer = useRef<L.Canvas | null>(null);
  // The base map: unknown until a tile answers; failed while none has (no network, blocked).
  const [baseMap, setBaseMap] = useState<'loading' | 'ok' | 'failed'>(() => (navigator.onLine ? 'loading' : 'failed'));
  // Handlers bound once per draw read the newest callbacks.
  const handlers = useRef({ onOpen, onMove });
  useEffect(() => {
    handlers.current = { onOpen, onMove };
  }, [onOpen, onMove]);

  // One Leaflet map per mounted component (TicketMap keys it by the tile source). Made, fitted
  // and first drawn in layout effects: in the commit that mounts the map, before the browser
  // paints or runs anything else (an idle callback, such as the offline copy of the job, ran in
  // the gaps between passive effects and delayed the first points; decision 023).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const m = L.map(el, { preferCanvas: true, maxZoom: config.max_zoom, worldCopyJump: true, zoomSnap: 0.5 });
    m.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
    // The canvas a little larger than the view (Leaflet's default 0.1), not twice as wide and high
    // (0.5): only the points in view are drawn on it, and every pan and zoom clears, redraws and
    // composites all of its pixels (four times the view's, at 0.5).
    renderer.current = L.canvas({ padding: 0.1, tolerance: 4 });
    // updateWhenZooming: tiles of the zoom a wheel or pinch ends on, not of each level it passes.
    const tiles = L.tileLayer(config.tile_url, { attribution: config.attribution, maxZoom: config.max_zoom, updateWhenZooming: false });
    let loaded = false;
    tiles.on('tileload', () => {
      loaded = true;
      setBaseMap('ok');
    });
    tiles.on('tileerror', () => {
      if (!loaded) setBaseMap('failed');
    });
    // No base map (no network, a blocked tile server): once every tile of a view has failed and none
    // ever loaded, the layer stops asking, or each pan and zoom would make and fail a few dozen
    // images (most of the main thread's work while moving such a map; decision 023). Its credit stays.
    // It asks again when the connection comes back, or on a move a while after it stopped.
    let pausedAt = 0;
    tiles.on('load', () => {
      if (loaded || pausedAt) return;
      pausedAt = Date.now();
      m.attributionControl.addAttribution(config.attribution);
      setTimeout(() => m.removeLayer(tiles), 0); // not inside the layer's own event
    });
    const resume = () => {
      if (!pausedAt) return;
      pausedAt = 0;
      tiles.addTo(m);
      m.attributionControl.removeAttribution(config.attribution);
    };
    const retryOnMove = () => {
      if (pausedAt && Date.now() - pausedAt > BASE_MAP_RETRY_MS) resume();
    };
    window.addEventListener('online', resume);
    m.on('moveend', retryOnMove);
    m.setView(DEFAULT_CENTER, 4);
    setMap(m);
    // The base map after the points: laying out and requesting the tiles of the first view (and
    // again of the fitted one) must not delay the poles being drawn (docs/product/scale.md §3: usable < 1.5 s).
    const addTiles = () => tiles.addTo(m);
    const idle = typeof requestIdleCallback === 'undefined' ? null : requestIdleCallback(addTiles, { timeout: 500 });
    const timer = idle === null ? setTimeout(addTiles, 0) : null;
    return () => {
      if (idle !== null) cancelIdleCallback(idle);
      if (timer !== null) clearTimeout(timer);
      window.removeEventListener('online', resume);
      setMap(null);
      m.remove();
    };
  }, [config]);

  const index = useMemo(() => new Supercluster<ClusterProps, ClusterSums>(CLUSTER_OPTIONS).load(clusterInput(points)), [points]);

  const fit = useCallback(() => {
    if (!map) return;
    const b = boundsOf(points);
    if (b) map.fitBounds(b, { padding: [32, 32], maxZoom: FIT_MAX_ZOOM });
    else if (position) map.setView([position.lat, position.lon], 15);
  }, [map, points, position]);

  // The first list with points decides the first view; later lists (a filter) keep the view.
  const fitted = useRef(false);
  useLayoutEffect(() => {
    if (!map || fitted.current || points.length === 0) return;
    fitted.current = true;
    fit();
  }, [map, points, fit]);

  // Draw what the view holds, again after every move or zoom.
  const draggable = Boolean(onMove);
  const drawnOnce = useRef(false);
  useLayoutEffect(() => {
    if (!map) return;
    const layer = L.layerGroup().addTo(map);
    // A drag ends with a click on the same spot: that click must not open the ticket.
    let draggedAt = 0;
    // The point whose keyboard button has focus: a redraw (a move, a filter) focuses it again.
    const focusedPoint = () => {
      const el = document.activeElement;
      return el instanceof HTMLElement && el.dataset.pointId && map.getContainer().contains(el) ? Number(el.dataset.pointId) : null;
    };

    const startDrag = (marker: L.CircleMarker, p: MapPoint, e: L.LeafletMouseEvent) => {
      if (e.originalEvent.button !== 0) return;
      const from = marker.getLatLng();
      const start = e.containerPoint;
      let moved = false;
      map.dragging.disable();
      const move = (ev: MouseEvent) => {
        const at = map.mouseEventToContainerPoint(ev);
        if (!moved && at.distanceTo(start) < 4) return;
        moved = true;
        marker.setLatLng(map.containerPointToLatLng(at));
      };
      const up = () => {
        document.removeEventListener('mousemove', move);
        document.removeEventListener('mouseup', up);
        map.dragging.enable();
        if (!moved) return;
        draggedAt = Date.now();
        const to = marker.getLatLng().wrap();
        const save = handlers.current.onMove;
        if (!save) return void marker.setLatLng(from);
        // Refused, cancelled or failed: the point goes back where it was.
        void save(p.id, { lat: to.lat, lon: to.lng }).then(
          (ok) => !ok && marker.setLatLng(from),
          () => marker.setLatLng(from),
        );
      };
      document.addEventListener('mousemove', move);
      document.addEventListener('mouseup', up);
    };

    const draw = () => {
      const refocus = focusedPoint();
      layer.clearLayers();
      const b = map.getBounds();
      const found = index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.floor(map.getZoom()));
      const singleIndexes: number[] = [];
      for (const f of found) {
        const [lon, lat] = f.geometry.coordinates;
        if (!('cluster' in f.properties)) {
          singleIndexes.push(f.properties.i);
          continue;
        }
        const { point_count: count, overdue } = f.properties;
        const size = count < 10 ? 34 : count < 100 ? 40 : count < 1000 ? 48 : 56;
        const expand = () => map.setView([lat, lon], Math.min(index.getClusterExpansionZoom(Number(f.id)), map.getMaxZoom()));
        // A cluster holding overdue poles wears a red ring (and says so): they are not hidden in it.
        const marker = L.marker([lat, lon], {
          icon: L.divIcon({ className: overdue ? `${classes.cluster} ${classes.clusterOverdue}` : classes.cluster, html: String(count), iconSize: [size, size] }),
          keyboard: true,
          riseOnHover: true,
          zIndexOffset: overdue ? 500 : 0,
        }).on('click', expand);
        marker.addTo(layer);
        const el = marker.getElement();
        el?.setAttribute('aria-label', clusterLabel(count, overdue));
        el?.addEventListener('keydown', (ev) => {
          if (ev.key !== 'Enter' && ev.key !== ' ') return;
          ev.preventDefault();
          expand();
        });
      }
      // The keyboard's buttons in the list's order (Tab follows the table or My Work's list).
      const keyOrder = singleIndexes.sort((a, b) => a - b).map((i) => points[i]);
      // Overdue last, so it is drawn on top of its neighbours.
      const singles = [...keyOrder].sort(byDrawOrder);
      const drawn = new Map<number, L.CircleMarker>();
      for (const p of singles) {
        const style = POINT_STYLE[p.state];
        const marker = new LetterMarker(
          [p.lat, p.lon],
          { renderer: renderer.current ?? undefined, radius: style.radius, color: '#fff', weight: 2, fillColor: style.color, fillOpacity: 1, bubblingMouseEvents: false },
          style.letter,
        );
        marker.bindTooltip(pointLabel(p), { direction: 'top', offset: [0, -style.radius] });
        marker.on('click', () => {
          if (Date.now() - draggedAt > 400) handlers.current.onOpen(p.id);
        });
        if (draggable) marker.on('mousedown', (e) => startDrag(marker, p, e));
        marker.addTo(layer);
        drawn.set(p.id, marker);
      }
      for (const p of keyOrder) {
        const el = keyButton(p, drawn.get(p.id)!).addTo(layer).getElement();
        if (el && p.id === refocus) el.focus({ preventScroll: true });
      }
    };

    /**
     * A single point's button for the keyboard: transparent, the size of the drawn point, over
     * it; not interactive for the mouse (Leaflet lets pointer events through to the canvas).
     */
    const keyButton = (p: MapPoint, drawn: L.CircleMarker) => {
      const size = 2 * POINT_STYLE[p.state].radius + 4;
      const marker = L.marker([p.lat, p.lon], {
        icon: L.divIcon({ className: classes.pointKey, iconSize: [size, size] }),
        interactive: false,
        // Leaflet gives it tabindex 0 and role button; no panning on focus: the point is in view,
        // and a pan redraws the layer under the focused button.
        keyboard: true,
        autoPanOnFocus: false,
      });
      marker.on('add', () => {
        const el = marker.getElement();
        if (!el) return;
        el.setAttribute('aria-label', pointLabel(p));
        el.dataset.pointId = String(p.id);
        el.addEventListener('keydown', (ev) => {
          if (ev.key !== 'Enter' && ev.key !== ' ') return;
          ev.preventDefault();
          handlers.current.onOpen(p.id);
        });
        el.addEventListener('focus', () => drawn.openTooltip());
        el.addEventListener('blur', () => drawn.closeTooltip());
      });
      return marker;
    };
    draw();
    // The benchmark's mark (as tickets-table-visible for the table): the first points drawn.
    if (!drawnOnce.current && points.length > 0) {
      drawnOnce.current = true;
      requestAnimationFrame(() => performance.mark?.('tickets-map-visible'));
    }
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      layer.remove();
    };
  }, [map, index, points, draggable]);

  // The phone's position: a violet dot with its accuracy circle. When it is (newly) asked for,
  // the view shows it with the nearest pole, so the crew sees where to walk.
  const latestPoints = useRef(points);
  useEffect(() => {
    latestPoints.current = points;
  }, [points]);
  useEffect(() => {
    if (!map || !position) return;
    const at: L.LatLngTuple = [position.lat, position.lon];
    const layer = L.layerGroup([
      L.circle(at, { radius: position.accuracy, color: '#6741d9', weight: 1, fillOpacity: 0.08, interactive: false, renderer: renderer.current ?? undefined }),
      L.marker(at, { icon: L.divIcon({ className: classes.me, iconSize: [18, 18] }), keyboard: false, interactive: false, zIndexOffset: 1000 }),
    ]).addTo(map);
    let nearest: MapPoint | null = null;
    for (const p of latestPoints.current) if (!nearest || distanceMeters(position, p) < distanceMeters(position, nearest)) nearest = p;
    if (nearest) map.fitBounds([at, [nearest.lat, nearest.lon]], { padding: [48, 48], maxZoom: FIT_MAX_ZOOM });
    else map.setView(at, Math.max(map.getZoom(), 15));
    return () => {
      layer.remove();
    };
  }, [map, position]);

  return (
    <>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="md" className={classes.legend} aria-label="Map legend" role="list" wrap="wrap">
          {(['Pending', 'Overdue', 'Complete'] as const).map((s) => (
            <Group key={s} gap={6} role="listitem" wrap="nowrap">
              {legendDot(POINT_STYLE[s].color, POINT_STYLE[s].letter, 8)}
              <Text size="sm">{POINT_STYLE[s].label}</Text>
            </Group>
          ))}
          {position && (
            <Group gap={6} role="listitem" wrap="nowrap">
              <span className={classes.meSwatch} aria-hidden />
              <Text size="sm">You (±{Math.round(position.accuracy)} m)</Text>
            </Group>
          )}
        </Group>
        <Button variant="default" leftSection={<IconFocusCentered size={16} />} onClick={fit} disabled={points.length === 0 && !position}>
          {fitLabel}
        </Button>
      </Group>
      <div className={classes.frame}>
        <div ref={box} className={classes.map} role="region" aria-label={label} data-testid="ticket-map" />
        {/* Over the map, not above it: the map does not jump down when the first tile fails. */}
        {baseMap === 'failed' && (
          <Text size="sm" role="status" className={classes.note}>
            Base map unavailable
          </Text>
        )}
      </div>
    </>
  );
}
