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
  /** Bytes of serialised GET /jobs/{id} replies each process keeps (JOB_CACHE_MB; 0 = none). */
  jobCacheBytes: number;
  /** How long SIGTERM waits for requests in flight before the process exits anyway (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Workbook imports: unzipped bytes a .xlsx may hold (IMPORT_MAX_UNZIPPED_MB, default 50)… */
  importMaxUnzippedBytes: number;
  /** …and how long reading one may take before its worker is stopped (IMPORT_TIME_LIMIT_MS, default 60 s). */
  importTimeLimitMs: number;
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
  };
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
