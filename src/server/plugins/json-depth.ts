import { MSG } from '../../shared/messages';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors';

/** docs/product/sessions-and-safety.md §8 "request shape": no request of the app nests deeper than this (a job save: ~6). */
export const MAX_JSON_DEPTH = 64;


/**
 * How deeply the JSON text nests its arrays and objects, counted on the raw text in one pass
 * (brackets inside strings do not count). Stops counting as soon as `limit` is passed: a hostile
 * body is refused after reading only its first `limit + 1` brackets. No recursion, no parse.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * The app's JSON parser: Fastify's own (size limit, empty body, `__proto__` refused) behind a
 * depth check on the raw text. It runs before every hook that walks the parsed body (the text
 * check, the idempotency hash, the route's schema), so a body nested thousands of levels deep
 * is a 400 naming the rule instead of a stack overflow (a 500) somewhere down the line.
 */
export function registerJsonDepthLimit(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text)) {
      done(badRequest(MSG.tooDeep(MAX_JSON_DEPTH)), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
