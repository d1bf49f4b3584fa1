import { describe, expect, it } from 'vitest';
import { ticketHref, ticketParam } from './ticketUrl';

const param = (q: string) => ticketParam(new URLSearchParams(q));

describe('the ticket address (/job?id=…&ticket=…)', () => {
  it('names a ticket by its id, Create Ticket by "new", and nothing otherwise', () => {
    expect(param('id=4&ticket=17')).toBe(17);
    expect(param('id=4&ticket=new')).toBe('new');
    for (const bad of ['id=4', 'id=4&ticket=', 'id=4&ticket=0', 'id=4&ticket=-3', 'id=4&ticket=2.5', 'id=4&ticket=abc', 'id=4&ticket=1e3x']) expect(param(bad)).toBeNull();
  });

  it('writes what it reads', () => {
    expect(ticketHref(4, 17)).toBe('/job?id=4&ticket=17');
    expect(ticketHref(4, null)).toBe('/job?id=4&ticket=new');
    expect(ticketHref(4, undefined)).toBe('/job?id=4');
    expect(param(ticketHref(4, 17).split('?')[1])).toBe(17);
  });
});
