import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registeredRoutes, type RegisteredRoute } from './plugins/route-list';
import { createTestApp } from './test/harness';
import { jsonDepthExceeds } from './plugins/json-depth';

/**
 * Every registered route, signed in and not, gets hostile text in its path, query and body:
 * a NUL byte (PostgreSQL's text refuses it), a lone surrogate (not Unicode), a 1 MB string and
 * `__proto__` keys. Each must answer a 4xx: never a 5xx, never a crash. The list of routes
 * comes from the app itself (plugins/route-list.ts), so a new route is fuzzed without anyone
 * remembering to add it.
 */
const t = await createTestApp();
const routes = registeredRoutes(t.app).filter((r) => !r.url.startsWith('/api/docs'));

const HOSTILE = {
  nul: 'a\u0000b',
  surrogate: 'a\ud800b',
  huge: 'x'.repeat(1024 * 1024),
} as const;
type Kind = keyof typeof HOSTILE;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/**
 * A value of the schema's shape whose every string (and unknown) is the hostile text. `number`
 * is what a number field gets: a query string is text on the wire, so there it is the text too
 * (a route whose only input is a numeric query parameter must refuse it like any other).
 */
function sample(schema: JsonSchema | undefined, text: string, number: unknown = 999_999): unknown {
  if (!schema) return text;
  const alt = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alt) return sample(alt.find((s) => s.type !== 'null') ?? alt[0], text, number);
  const type = [schema.type ?? 'string'].flat().find((x) => x !== 'null');
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? { note: {} }).map(([k, s]) => [k, sample(s, text, number)]));
    case 'array':
      return [sample(schema.items, text, number)];
    case 'number':
    case 'integer':
      return number;
    case 'boolean':
      return true;
    default:
      return text;
  }
}

function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return undefined;
  return z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

/** Percent-encodes text for a URL; a lone surrogate has no UTF-8 form, so it goes as the bytes a
 * hostile client would send for it (ED A0 80, CESU-8). */
const encode = (text: string) => (text.includes('\ud800') ? text.split('\ud800').map(encodeURIComponent).join('%ED%A0%80') : encodeURIComponent(text));

function urlFor(route: RegisteredRoute, param: string, query: Record<string, unknown>): string {
  const path = route.url.replace(/:[A-Za-z_]+/g, encode(param)).replace(/\*$/, encode(`x${param}.pdf`));
  const qs = Object.entries(query).map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return qs.length ? `${path}?${qs.join('&')}` : path;
}

/** Whether the route reads anything from the caller: with nothing to read, a 200 is right. */
const takesInput = (route: RegisteredRoute) => {
  const schema = route.schema as Record<string, unknown> | undefined;
  return /[:*]/.test(route.url) || Boolean(schema?.querystring || schema?.body);
};

async function hit(route: RegisteredRoute, kind: Kind, signedIn: boolean) {
  const text = HOSTILE[kind];
  const schema = route.schema as Record<string, unknown> | undefined;
  const querySample = sample(jsonSchemaOf(schema?.querystring) ?? { type: 'object', properties: { q: {} } }, text, text) as Record<string, unknown>;
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  const token = signedIn ? await t.login('admin@example.com') : undefined;
  return t.request({
    method: route.method as 'GET',
    url: urlFor(route, text, querySample),
    token,
    ...(hasBody ? { body: sample(jsonSchemaOf(schema?.body) ?? { type: 'object' }, text) } : {}),
  });
}

describe('hostile input on every route', () => {
  it('finds the routes of every area', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls.length).toBeGreaterThan(35);
    for (const expected of ['POST /api/v1/crew/login', 'PUT /api/v1/tickets/', 'GET /api/v1/jobs', 'PUT /files/*']) {
      expect(urls).toContain(expected);
    }
  });

  for (const kind of Object.keys(HOSTILE) as Kind[]) {
    for (const signedIn of [false, true]) {
      it(`answers a 4xx to ${kind} text, ${signedIn ? 'signed in' : 'signed out'}`, async () => {
        const answers: string[] = [];
        const bad: string[] = [];
        for (const route of routes) {
          const res = await hit(route, kind, signedIn);
          const answer = `${res.statusCode} ${route.method} ${route.url}: ${res.body.slice(0, 120)}`;
          answers.push(answer);
          // NUL is refused wherever it is (the query of any route too); a long string only
          // where the route reads input (health ignores a stray query).
          // A lone surrogate has no UTF-8 form, so a URL cannot carry one (its bytes decode to
          // U+FFFD, which is fine text): it is refused in a JSON body.
          const hasBody = Boolean((route.schema as Record<string, unknown> | undefined)?.body);
          const mustRefuse = kind === 'nul' || (kind === 'huge' && takesInput(route)) || (kind === 'surrogate' && hasBody);
          if (res.statusCode >= 500 || (mustRefuse && res.statusCode < 400)) bad.push(answer);
        }
        expect(bad, answers.join('\n')).toEqual([]);
      }, 120_000);
    }
  }

  it('refuses __proto__ and constructor keys in a JSON body on every route that takes one', async () => {
    const token = await t.login('admin@example.com');
    for (const route of routes.filter((r) => !['GET', 'DELETE'].includes(r.method))) {
      const res = await t.request({
        method: route.method as 'POST',
        url: urlFor(route, '999999', {}),
        token,
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

/**
 * JSON nested ~6,500 levels deep (docs/product/sessions-and-safety.md §8 "request shape") used to overflow the stack of the
 * recursive text check: a 500 and a logged stack on every route, public ones included. Now a
 * body nested deeper than 64 levels is a 400 before any hook walks it, on every route.
 */
describe('JSON nested deeper than 64 levels', () => {
  const DEPTH = 6_500;
  const deepArrays = `${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}`;
  const deepObjects = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

  for (const signedIn of [false, true]) {
    it(`never answers 5xx on any route, ${signedIn ? 'signed in' : 'signed out'}, and refuses it with 400 where a body is read`, async () => {
      const bad: string[] = [];
      const answers: string[] = [];
      for (const route of routes) {
        // Fresh each time: the walk passes POST /crew/logout, which ends the session.
        const token = signedIn ? await t.login('admin@example.com') : undefined;
        for (const body of [deepArrays, deepObjects]) {
          const res = await t.request({
            method: route.method as 'POST',
            url: urlFor(route, '999999', {}),
            token,
            headers: { 'content-type': 'application/json' },
            body,
          });
          const answer = `${res.statusCode} ${route.method} ${route.url}: ${res.body.slice(0, 160)}`;
          answers.push(answer);
          if (res.statusCode >= 500) bad.push(answer);
          // A route that reads a JSON body (signed in, allowed) must say why it refused.
          const readsBody = (signedIn || route.public) && !['GET', 'DELETE'].includes(route.method) && Boolean((route.schema as Record<string, unknown> | undefined)?.body);
          if (readsBody && (res.statusCode !== 400 || !/nested more than 64 levels/.test(res.json().error))) bad.push(answer);
        }
      }
      expect(bad, answers.join('\n')).toEqual([]);
    }, 120_000);
  }

  it('counts brackets of the JSON text only, not those inside strings', () => {
    expect(jsonDepthExceeds(`["${'['.repeat(100)}"]`)).toBe(false);
    expect(jsonDepthExceeds(`["\\"${'['.repeat(100)}"]`)).toBe(false);
    expect(jsonDepthExceeds(`${'['.repeat(64)}${']'.repeat(64)}`)).toBe(false);
    expect(jsonDepthExceeds(`${'['.repeat(65)}${']'.repeat(65)}`)).toBe(true);
  });

  it('accepts JSON nested 64 levels deep (the refusal starts at 65)', async () => {
    const token = await t.login('admin@example.com');
    const at = (depth: number) => `{"user":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const ok = await t.request({ method: 'PUT', url: '/api/v1/crew/myProfileData', token, headers: { 'content-type': 'application/json' }, body: at(64) });
    expect(ok.statusCode).toBe(400);
    expect(ok.json().error).not.toMatch(/nested/);
    const deep = await t.request({ method: 'PUT', url: '/api/v1/crew/myProfileData', token, headers: { 'content-type': 'application/json' }, body: at(65) });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toMatch(/nested more than 64 levels/);
  });
});

describe('a NUL byte where people type', () => {
  it('is a 400 naming the field at sign-in, forgot-password and sign-up, with nothing stored', async () => {
    const login = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'admin@example.com\u0000', password: 'linecrew' } });
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json().error).toMatch(/"email" contains a character that cannot be stored/);

    const forgot = await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'x\u0000@example.com' } });
    expect(forgot.statusCode).toBe(400);
    expect(t.outbox()).toHaveLength(0);

    const signUp = await t.request({
      method: 'POST',
      url: '/api/v1/crew/sign-up',
      body: { name: 'Nul Person', email: 'nul.person@example.com', password: 'long-enough-1', companyName: 'Nul\u0000 Co' },
    });
    expect(signUp.statusCode).toBe(400);
    expect(signUp.json().error).toMatch(/"companyName"/);
    const again = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'nul.person@example.com', password: 'long-enough-1' } });
    expect(again.statusCode).not.toBe(200);
  });

  it('is a 400 on a note, a search and job_exists, and the note is not saved', async () => {
    const token = await t.login('admin@example.com');
    const job = (await t.request({ url: '/api/v1/jobs', token })).json()[0];
    const ticket = (await t.request({ url: `/api/v1/jobs/tickets/${job.id}`, token })).json()[0];
    const save = await t.request({
      method: 'PUT',
      url: '/api/v1/tickets/',
      token,
      body: { ticket: { ...ticket, notes: [...ticket.notes, { note_text: 'bad \u0000 note' }] } },
    });
    expect(save.statusCode).toBe(400);
    const after = (await t.request({ url: `/api/v1/jobs/tickets/${job.id}`, token })).json().find((x: { id: number }) => x.id === ticket.id);
    expect(after.notes).toEqual(ticket.notes);
    expect(after.version).toBe(ticket.version);

    const search = await t.request({ url: `/api/v1/units?search=${encodeURIComponent('a\u0000')}`, token });
    expect(search.statusCode).toBe(400);
    const exists = await t.request({ url: `/api/v1/jobs/job_exists/${encodeURIComponent('J\u0000')}`, token });
    expect(exists.statusCode).toBe(400);
  });
});
