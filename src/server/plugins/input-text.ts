import type { FastifyInstance } from 'fastify';
import { MSG } from '../../shared/messages';
import { findUnstorableText } from '../../shared/text';
import { badRequest } from '../errors';

/**
 * Every route, one check: a NUL byte or a lone surrogate anywhere in the parsed body, query or
 * path answers 400 naming the field, before the route's schema or handler runs. Done here
 * rather than in each of the ~140 zod strings so that no field, today's or tomorrow's, can
 * forget it (PostgreSQL refuses NUL in text, which used to surface as a 500). The rule itself
 * lives in src/shared/text.ts, where forms can use it too.
 */
export function registerInputTextCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const where = findUnstorableText(value);
      if (where) {
        const field = where === 'request' ? part : where;
        throw badRequest(`The ${field === part ? part : `field "${field}"`} ${MSG.unstorableText}`, { [field]: MSG.unstorableText });
      }
    }
  });
}
