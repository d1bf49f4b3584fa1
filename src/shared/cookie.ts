/**
 * SPEC §4: the session cookie uses path /, the parent domain of the current host and
 * SameSite=Strict. 'app.example.com' → '.example.com'; localhost and IP addresses get no
 * Domain attribute (browsers refuse one there).
 */
export function cookieDomainFor(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':')) return undefined;
  const parts = host.split('.');
  if (parts.length < 2) return undefined;
  if (parts.length === 2) return `.${host}`;
  return `.${parts.slice(1).join('.')}`;
}
