import { MSG } from '../../../shared/messages';
import { ERROR_CODE } from '../../../shared/error-codes';
import { AppError, tooMany } from '../../errors';
import type { DbOrTx } from '../../db/client';
import { findUserByEmail } from './auth.repository';
import * as throttle from './throttle.repository';

/**
 * docs/product/sessions-and-safety.md §7 "e-mail discovery": the one answer to an address that another account uses,
 * whichever company it is in. Neutral words, and the same for both, so the roster and the profile
 * do not tell a prober which company has the address.
 */
export const emailTaken = () => new AppError(409, MSG.emailTaken, { email: MSG.emailTaken }, ERROR_CODE.emailTaken);

/**
 * Before `email` is given to an account (a new crew member, one's own new address): 409
 * `emailTaken` when another account (not `ownId`) has it, counted against the asking user's
 * budget of 20 such answers an hour, in PostgreSQL so every process shares it. Once the budget
 * is gone every address answers 429, free ones too: a 200 for a free address would otherwise
 * still tell the prober that the others were taken.
 */
export async function assertEmailAvailable(db: DbOrTx, askedBy: number, email: string, ownId?: number): Promise<void> {
  const key = throttle.keys.emailTaken(askedBy);
  const { emailTakenAnswers: limit } = throttle.THROTTLE_LIMITS;
  if (await throttle.exhausted(db, key, limit, throttle.HOUR_WINDOW_MINUTES)) throw tooMany(MSG.emailChecksTooMany);
  const other = await findUserByEmail(db, email);
  if (!other || other.id === ownId) return;
  if (!(await throttle.take(db, key, limit, throttle.HOUR_WINDOW_MINUTES))) throw tooMany(MSG.emailChecksTooMany);
  throw emailTaken();
}
