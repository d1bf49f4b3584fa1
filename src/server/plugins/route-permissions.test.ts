import { describe, expect, it } from 'vitest';
import { can, type Action } from '../../shared/permissions';
import { ROLE } from '../../shared/constants';
import { createTestApp } from '../test/harness';
import { registeredRoutes } from './route-list';
import { CHECKED_IN_HANDLER } from './routes';

/**
 * Every route behind sign-in declares the permission it needs (`config: { allow }`), and the
 * auth plugin enforces it. The routes come from the app itself, so a new route that forgets
 * to declare one fails here (the auth plugin would refuse it to everyone anyway).
 */
const t = await createTestApp();
// The OpenAPI pages are served outside the API scope, with no sign-in.
const routes = registeredRoutes(t.app).filter((r) => !r.url.startsWith('/api/docs'));
const users: Record<number, string> = {
  [ROLE.OFFICE_MANAGER]: 'office@example.com',
  [ROLE.FOREMAN]: 'foreman@example.com',
  [ROLE.WORKING_FOREMAN]: 'wforeman@example.com',
  [ROLE.LINEMAN]: 'lineman@example.com',
};

describe('route permissions', () => {
  it('every route that is not public declares a permission', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => !r.public && !r.allow).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it('a role without the declared permission gets 403 before its input is looked at', async () => {
    const tokens = new Map<number, string>();
    for (const [role, email] of Object.entries(users)) tokens.set(Number(role), await t.login(email));
    let checked = 0;
    for (const route of routes) {
      if (route.public || !route.allow || route.allow === CHECKED_IN_HANDLER) continue;
      const action: Action = route.allow;
      const role = [...tokens.keys()].find((r) => !can(r, action));
      if (role === undefined) continue; // every role may (read, profile, tickets.annotate)
      // No body, no query, a path id of another company's kind: only the permission can answer.
      const url = route.url.replace(/:\w+/g, '1').replace(/\*$/, 'x');
      const res = await t.request({ method: route.method as 'GET', url, token: tokens.get(role) });
      expect(res.statusCode, `${route.method} ${route.url} as role ${role}`).toBe(403);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
});
