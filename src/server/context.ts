import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';

/** What every module is given: no globals, so tests and several processes stay independent. */
export interface AppContext {
  db: Db;
  config: Config;
  mail: Mailer;
  storage: Storage;
}

/** A Fastify instance whose routes are typed by their zod schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
