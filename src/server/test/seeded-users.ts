/**
 * The seeded demo users by role (src/server/db/seed/seed.ts), for the API tests and the e2e
 * journeys alike; `other` is the admin of another company. No imports: e2e loads it as is.
 */
export const SEEDED_USERS = {
  admin: 'admin@example.com',
  office: 'office@example.com',
  foreman: 'foreman@example.com',
  wforeman: 'wforeman@example.com',
  lineman: 'lineman@example.com',
  apprentice: 'apprentice@example.com',
  other: 'admin@other.example.com',
} as const;
export type SeededRole = keyof typeof SEEDED_USERS;
