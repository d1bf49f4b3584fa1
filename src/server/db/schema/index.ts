// The whole schema, for drizzle's query builder and drizzle-kit.
export * from './core';
export * from './reference';
export * from './poles';
export * from './jobs';
export * from './idempotency';
export * from './billing';
export * from './name-clashes';
export * from './history';
export * from './record';
export * from './webhooks';
export * from './api-tokens';
