import { z } from 'zod';
import { LIMITS } from './constants';
import { MSG } from './messages';

/** Request and reply contracts of the sign-in and account routes (docs/product/api.md §2 Account). */

const email = z.string().trim().max(LIMITS.shortTextMax);

export const loginBody = z.object({
  email: email.min(LIMITS.emailMin, MSG.loginTooShort),
  password: z.string().min(LIMITS.passwordMin, MSG.loginTooShort).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const signUpBody = z.object({
  name: z.string().trim().min(LIMITS.nameMin).max(LIMITS.shortTextMax),
  email: z.email(MSG.email).max(LIMITS.shortTextMax),
  password: z.string().min(LIMITS.passwordMin).max(200),
  companyName: z.string().trim().min(2).max(LIMITS.shortTextMax).optional(),
});

export const forgotBody = z.object({ email: email.min(LIMITS.emailMin, 'Enter your email address.') });
export type ForgotBody = z.infer<typeof forgotBody>;

/** The reset page's "Send me a new link": the request of forgotBody, worded for a link that did not work. */
export const newLinkForm = z.object({ email: email.min(LIMITS.emailMin, 'Enter the email address the link was sent to.') });

/** The reply of the routes that only report what they did: sign-up, forgot password, the crew's reset and invitation mails. */
export const messageReply = z.object({ success: z.boolean(), message: z.string() });
export type MessageReply = z.infer<typeof messageReply>;

/**
 * The two parameters of a mailed link (docs/product/api.md §2 reset link): the token (random bytes in
 * base64url) and the user's id. The reset page checks a link with this before showing the form,
 * and the server before looking the token up, so a link cut short in a mail client reads
 * MSG.resetInvalid on both sides, never validation text.
 */
export const resetLink = z.object({
  resetToken: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/, MSG.resetInvalid),
  userId: z.coerce.number(MSG.resetInvalid).int(MSG.resetInvalid).positive(MSG.resetInvalid).max(2_147_483_647, MSG.resetInvalid),
});

export const isWellFormedResetLink = (link: { resetToken: unknown; userId: unknown }) =>
  resetLink.safeParse({ resetToken: link.resetToken, userId: link.userId === '' ? undefined : link.userId }).success;

/**
 * POST /crew/reset-password. The link's fields are only typed here (strings or a number, bounded);
 * the service checks them with `resetLink`, so a malformed link gets the same answer as an
 * expired one. userId arrives from a query string, so numbers as strings are accepted.
 */
export const resetBody = z.object({
  resetToken: z.string(MSG.resetInvalid).max(1000, MSG.resetInvalid),
  userId: z.union([z.number(), z.string().max(20)], MSG.resetInvalid),
  /** Its minimum is checked by the service after the link, so the reply is MSG.resetMismatch as it stands. */
  password: z.string(MSG.resetMismatch).max(200, 'A password can be at most 200 characters.'),
});
export type ResetBody = z.infer<typeof resetBody>;

/**
 * The reset page's form: the new password twice. The minimum is the service's (auth.service
 * resetPassword) and so is the one message for both rules, MSG.resetMismatch.
 */
export const resetPasswordForm = z
  .object({
    password: z.string().min(LIMITS.passwordMin, MSG.resetMismatch).max(200, 'A password can be at most 200 characters.'),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: MSG.resetMismatch, path: ['confirm'] });
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;

export const profile = z.object({
  /** id, company_id and role_id: the web app learns who is signed in from this (the cookie is HttpOnly). */
  id: z.number(),
  company_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  company_name: z.string(),
  /** The company's IANA time zone: "today" for expiry and Clear to dig is the company's day (docs/product/records.md §5). */
  company_time_zone: z.string(),
  created_date: z.string(),
  role_id: z.number(),
  display_role_name: z.string(),
});
export type Profile = z.infer<typeof profile>;

/** Who signed in: the part of the profile the sign-in reply carries. */
export const sessionUser = profile.pick({ id: true, first_name: true, last_name: true, email: true, role_id: true, company_id: true, company_time_zone: true });
export type SessionUser = z.infer<typeof sessionUser>;

/** POST /crew/login and /crew/reset-password. */
export const sessionReply = z.object({ user: sessionUser, token: z.string() });
export type SessionReply = z.infer<typeof sessionReply>;

/**
 * A phone number as people write it: 6175550123, 617-555-0123,
 * (617) 555-0123, 617.555.0123, +1 617 555 0123, 555-0123. docs/product/rules.md's 7 or 10 counts the digits;
 * a leading country code 1 is allowed. Stored as typed.
 */
export function isPhoneNumber(value: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(value)) return false;
  // A '+' must be the North American country code; other countries' numbers are not 7 or 10 digits.
  if (value.startsWith('+') && !/^\+1\D/.test(value)) return false;
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return LIMITS.phoneLengths.includes(national.length);
}

/** The editable part of one's own profile; the same rules as the crew modal. */
export const phoneRule = z
  .string()
  .trim()
  .max(30, MSG.phone)
  .refine((v) => v === '' || isPhoneNumber(v), MSG.phone);

export const profileUpdate = z.object({
  first_name: z.string().trim().min(LIMITS.nameMin, MSG.firstName).max(100),
  last_name: z.string().trim().min(LIMITS.nameMin, MSG.lastName).max(100),
  email: z.email(MSG.email).max(LIMITS.shortTextMax),
  phone_number: phoneRule.nullable().optional(),
  /** Needed only when `email` changes (docs/product/sessions-and-safety.md): the server checks it, the form asks for it then. */
  current_password: z.string().max(200).optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdate>;

/**
 * Whether a profile save moves the account to another sign-in address: then it needs the
 * current password and the old address is told (docs/product/sessions-and-safety.md §6). Letter case alone is no move,
 * since sign-in compares addresses without it.
 */
export const isNewSignInEmail = (typed: string, current: string) => typed.trim().toLowerCase() !== current.trim().toLowerCase();

/** PUT /crew/myProfileData {user}: the profile as saved. */
export const profileSaveReply = z.object({ success: z.boolean(), user: profile });
export type ProfileSaveReply = z.infer<typeof profileSaveReply>;

/** One of my sessions (docs/product/sessions-and-safety.md §4): a sign-in on one device. */
export const sessionItem = z.object({
  id: z.uuid(),
  /** The session of the request that asked ("This device"). */
  current: z.boolean(),
  /** From the user agent at sign-in: "Chrome 126", "Android 14" (or "Unknown browser"). */
  browser: z.string(),
  system: z.string(),
  /** The client address last seen. */
  address: z.string().nullable(),
  created_at: z.string(),
  /** Moved forward at most once a minute. */
  last_seen_at: z.string(),
});
export type SessionItem = z.infer<typeof sessionItem>;

/** GET /crew/sessions: this device first, then the most recently seen. */
export const sessionsReply = z.object({ sessions: z.array(sessionItem) });
export type SessionsReply = z.infer<typeof sessionsReply>;

export const sessionIdParams = z.object({ id: z.uuid(MSG.sessionIdInvalid) });

/** POST /crew/logout-all and /crew/logout-others ("Sign out everywhere else"): how many sessions ended. */
export const logoutAllReply = z.object({ success: z.boolean(), ended: z.number().int() });
export type LogoutAllReply = z.infer<typeof logoutAllReply>;

export const roleOption = z.object({ id: z.number(), display_role_name: z.string() });
export type RoleOption = z.infer<typeof roleOption>;
