import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the enum is ambient const, which isolatedModules cannot read.
const ARGON2ID = 2;

/** argon2id with the library's defaults (memory 19 MiB, t=2): ~15 ms here. */
export const hashPassword = (password: string) => hash(password, { algorithm: ARGON2ID });

/** How many argon2 verifications ran: tests read it to check that unknown e-mails cost the same work. */
export const passwordStats = { verifications: 0 };

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  passwordStats.verifications++;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash must read as "wrong password", not a 500
  }
}

/** A random reset token for the link, and the sha256 we store instead of it. */
export function newResetToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashResetToken(token) };
}

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A hash of a random password nobody knows, with the same parameters as real ones: an unknown
 * e-mail is verified against it, so that it takes as long to refuse as a wrong password and
 * the answer time does not tell which addresses have accounts.
 */
let dummy: Promise<string> | undefined;
export async function verifyNobody(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummy, password);
  return false;
}
