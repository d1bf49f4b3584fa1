import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

/** Every setting the server reads, from the environment, in one place (README "Configuration"). */
export interface Config {
  port: number;
  host: string;
  production: boolean;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  seedDemo: boolean;
  /** The daily digest e-mail (docs/product/records.md §3): DAILY_DIGEST=0 turns it off in this process. */
  dailyDigest: boolean;
  jwtSecret: string;
  jwtExpiresIn: string;
  s3?: { bucket: string; endpoint?: string; region: string };
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY): a hop count or their addresses/CIDRs;
   * false = none, the client address is the socket's. Never `true`, which would let a client
   * pick its own address by sending the header.
   */
  trustProxy: false | number | string[];
  /** Bytes of serialised replies each process keeps: job pages, jobs lists, production (JOB_CACHE_MB; 0 = none). */
  jobCacheBytes: number;
  /** How long SIGTERM waits for requests in flight before the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Workbook imports: unzipped bytes a .xlsx may hold (IMPORT_MAX_UNZIPPED_MB, default 50)… */
  importMaxUnzippedBytes: number;
  /** …and how long reading one may take before its worker is stopped (IMPORT_TIME_LIMIT_MS, default 60 s). */
  importTimeLimitMs: number;
  /** The base map's raster tiles (MAP_STYLE_URL, MAP_ATTRIBUTION, MAP_MAX_ZOOM): see mapTiles. */
  map: MapTiles;
  /**
   * Webhooks (docs/product/integrations.md §4): `deliver` runs this process's delivery worker
   * (WEBHOOKS=0 turns it off; events are still recorded and another process sends them);
   * `allowPrivate` lets endpoints be http:// and on loopback/private addresses (WEBHOOKS_ALLOW_PRIVATE=1, tests only).
   */
  webhooks: { deliver: boolean; allowPrivate: boolean };
}

export class ConfigError extends Error {}

function megabytes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback * 1024 * 1024;
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb < 0) throw new ConfigError(`${name} must be a number of megabytes (0 or more), got "${raw}"`);
  return Math.round(mb * 1024 * 1024);
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) throw new ConfigError(`${name} must be a whole number of milliseconds (more than 0), got "${raw}"`);
  return ms;
}

/** DATA_DIR, absolute (also read by `npm run backup` / `restore`, which need no other setting). */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR ?? './data');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${env.PORT}"`);
  const dataDir = dataDirOf(env);
  mkdirSync(dataDir, { recursive: true });
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    production,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Linecrew <no-reply@linecrew.local>',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    seedDemo: env.SEED_DEMO !== '0' && env.SEED_DEMO !== 'false',
    dailyDigest: env.DAILY_DIGEST !== '0' && env.DAILY_DIGEST !== 'false',
    jwtSecret: jwtSecret(env, production, dataDir),
    jwtExpiresIn: env.JWT_EXPIRES_IN ?? '7d',
    s3: env.S3_BUCKET
      ? { bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION ?? 'us-east-1' }
      : undefined,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    jobCacheBytes: megabytes(env, 'JOB_CACHE_MB', 64),
    shutdownTimeoutMs: milliseconds(env, 'SHUTDOWN_TIMEOUT_MS', 25_000),
    importMaxUnzippedBytes: megabytes(env, 'IMPORT_MAX_UNZIPPED_MB', 50),
    importTimeLimitMs: milliseconds(env, 'IMPORT_TIME_LIMIT_MS', 60_000),
    map: mapTiles(env),
    webhooks: { deliver: env.WEBHOOKS !== '0' && env.WEBHOOKS !== 'false', allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1' || env.WEBHOOKS_ALLOW_PRIVATE === 'true' },
  };
}

export interface MapTiles {
  /** A Leaflet raster-tile URL template: {z}, {x}, {y}, perhaps {s} (subdomain) and {r} (retina). */
  tileUrl: string;
  /** The tiles' origin as a CSP source for img-src: `https://*.tile.example.org` when the host has {s}. */
  tileSource: string;
  /** Plain text crediting the tiles (their licence usually requires it on the map). */
  attribution: string;
  maxZoom: number;
}

export const MAP_DEFAULTS = {
  tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
  maxZoom: 19,
} as const;

const TILE_PLACEHOLDER = /\{([^{}]*)\}/g;
const TILE_KNOWN = new Set(['s', 'z', 'x', 'y', 'r']);

/**
 * The base map (docs/product/map.md §4). MAP_STYLE_URL must be an http(s) URL template with {z}, {x} and
 * {y}; {s} may stand for a subdomain, only as the first label of the host (the CSP can allow
 * `*.host` but not a part of a label), and {r} for Leaflet's retina suffix. MAP_ATTRIBUTION is
 * plain text (the map shows it as text: '<' and '>' are refused). The server only hands these to
 * the browser (GET /map/config) and allows the origin in the CSP: it never fetches a tile.
 */
function mapTiles(env: NodeJS.ProcessEnv): MapTiles {
  const raw = env.MAP_STYLE_URL?.trim() || MAP_DEFAULTS.tileUrl;
  const bad = (why: string) =>
    new ConfigError(`MAP_STYLE_URL must be an http or https URL template of raster tiles with {z}, {x} and {y}, e.g. ${MAP_DEFAULTS.tileUrl}: ${why} (got "${raw}")`);
  const names = [...raw.matchAll(TILE_PLACEHOLDER)].map((m) => m[1]);
  const unknown = names.find((n) => !TILE_KNOWN.has(n));
  if (unknown !== undefined) throw bad(`{${unknown}} is not a placeholder the map fills in ({s}, {z}, {x}, {y}, {r})`);
  const missing = ['z', 'x', 'y'].filter((n) => !names.includes(n));
  if (missing.length) throw bad(`${missing.map((n) => `{${n}}`).join(', ')} missing`);
  // The template with each placeholder filled as the map would: then it must be a plain URL.
  const sample = raw.replace(TILE_PLACEHOLDER, (_m, n: string) => (n === 's' ? 'a' : n === 'r' ? '' : '0'));
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    throw bad('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('only http and https are allowed');
  if (url.username || url.password) throw bad('a user name or password in the URL would be sent to every browser');
  const authority = raw.slice(url.protocol.length + 2).split(/[/?#]/)[0];
  const host = authority.replace(/:\d+$/, '');
  if (host.includes('{') && !/^\{s\}\.[^{}]+$/.test(host)) throw bad('in the host name only {s} may stand, as its first part ({s}.tile.example.org)');
  const port = url.port ? `:${url.port}` : '';
  const tileSource = host.startsWith('{s}.') ? `${url.protocol}//*.${url.hostname.split('.').slice(1).join('.')}${port}` : url.origin;

  const attribution = env.MAP_ATTRIBUTION?.trim() || MAP_DEFAULTS.attribution;
  if (/[<>]/.test(attribution) || attribution.length > 300) {
    throw new ConfigError(`MAP_ATTRIBUTION must be plain text of at most 300 characters, without < or > (got "${attribution.slice(0, 80)}")`);
  }
  const zoomRaw = env.MAP_MAX_ZOOM?.trim() || String(MAP_DEFAULTS.maxZoom);
  const maxZoom = Number(zoomRaw);
  if (!/^\d+$/.test(zoomRaw) || maxZoom < 1 || maxZoom > 22) throw new ConfigError(`MAP_MAX_ZOOM must be a whole number from 1 to 22, got "${zoomRaw}"`);
  return { tileUrl: raw, tileSource, attribution, maxZoom };
}

/**
 * TRUST_PROXY: a number of proxy hops in front of the app (`1`: one reverse proxy; `true` means
 * the same), or a comma-separated list of the proxies' addresses or CIDRs. With a hop count
 * Fastify takes the address the outermost trusted proxy saw, not the first X-Forwarded-For entry
 * (which the client writes itself): sign-in throttling counts per real client address.
 */
function trustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value.split(',').map((v) => v.trim()).filter(Boolean);
  const bad = list.find((v) => {
    const [addr, bits, extra] = v.split('/');
    if (extra !== undefined || !isIP(addr)) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (isIP(addr) === 4 ? 32 : 128));
  });
  if (bad !== undefined) {
    throw new ConfigError(`TRUST_PROXY must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses or CIDRs, got "${raw}"`);
  }
  return list;
}

/** Fastify's option for `Config.trustProxy`: its types lack the hop count its runtime accepts. */
export function fastifyTrustProxy(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Production must be given a secret: a generated one would differ between processes and
 * sign everybody out on every deploy. In development one is generated once and kept.
 */
function jwtSecret(env: NodeJS.ProcessEnv, production: boolean, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long.');
    return env.JWT_SECRET;
  }
  if (production) {
    throw new ConfigError(
      'JWT_SECRET is not set. In production (NODE_ENV=production) set JWT_SECRET to a random string of at least 32 characters, the same for every app process.',
    );
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
