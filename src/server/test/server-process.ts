import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server (`node --import tsx src/server/main.ts`) as a child process on 127.0.0.1, for
 * the scale-out test (several processes on one database) and the benchmark (peak RSS of the
 * server, load over real HTTP). Only loopback traffic; every wait is bounded in time.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  /** stdout + stderr so far (last 64 KB), for messages when something fails. */
  output(): string;
  /** Resolves when GET /api/v1/health answers 200; rejects on exit or after timeoutMs. */
  ready: Promise<void>;
  /** SIGTERM, then SIGKILL after graceMs; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks; we close and hand it on). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  port?: number;
  timeoutMs?: number;
  /** Extra node flags (e.g. --cpu-prof, which NODE_OPTIONS does not accept). */
  nodeArgs?: string[];
}

export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    ...opts.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: opts.env.PUBLIC_URL ?? origin,
  };
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const ready = (async () => {
    const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
    let dead = false;
    void exited.then(() => (dead = true));
    while (Date.now() < deadline) {
      if (dead) throw new Error(`server on port ${port} exited before it was ready:\n${out}`);
      try {
        const res = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`server on port ${port} was not ready within ${opts.timeoutMs ?? 90_000} ms:\n${out}`);
  })();
  ready.catch(() => {}); // the caller awaits it; never an unhandled rejection

  return {
    child,
    pid: child.pid!,
    port,
    origin,
    output: () => out,
    ready,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Current and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rssMB: number; hwmMB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Samples VmRSS every intervalMs; `peak()` is the highest seen since the last `reset()`. */
export function rssSampler(pid: number, intervalMs = 100) {
  let peak = 0;
  const sample = () => {
    const m = memoryOf(pid);
    if (m && m.rssMB > peak) peak = m.rssMB;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    peak: () => (sample(), peak),
    reset: () => {
      peak = 0;
      sample();
    },
    stop: () => clearInterval(timer),
  };
}
