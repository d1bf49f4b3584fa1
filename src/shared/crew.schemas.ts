import { z } from 'zod';
import { CREW_STATUS, LIMITS, ROLE_IDS, ROLES_NEEDING_FOREMAN } from './constants';
import { MSG } from './messages';
import { phoneRule } from './auth.schemas';

/**
 * The crew roster's contract (docs/product/entities.md §9 Crew member, §5 Crew, §7): one set of rules for the
 * Add/Edit User modal and for POST/PUT /crew. Server-only rules (the foreman must be an active
 * foreman of the same company, only an Admin grants role 1, unique email) live in the service.
 */

export const EMAIL_PATTERN = z.regexes.email;

export const crewStatus = z.union([z.literal(CREW_STATUS.ACTIVE), z.literal(CREW_STATUS.INACTIVE)]);

const fields = {
  first_name: z.string().trim().min(LIMITS.nameMin, MSG.firstName).max(100, 'A first name can be at most 100 characters.'),
  last_name: z.string().trim().min(LIMITS.nameMin, MSG.lastName).max(100, 'A last name can be at most 100 characters.'),
  email: z.string(MSG.email).trim().max(LIMITS.shortTextMax, MSG.email).regex(EMAIL_PATTERN, MSG.email),
  phone_number: phoneRule.nullable().optional(),
  role_id: z
    .number(MSG.role)
    .int(MSG.role)
    .refine((v) => (ROLE_IDS as readonly number[]).includes(v), MSG.role),
  foreman: z.number().int().positive().nullable().optional(),
  crew_status: crewStatus.default(CREW_STATUS.ACTIVE),
};

/** docs/product/rules.md §3.1: Lineman, Apprentice and Working Foreman must name a crew foreman. */
export const needsForeman = (roleId: number | null | undefined) => roleId != null && (ROLES_NEEDING_FOREMAN as readonly number[]).includes(roleId);

function foremanRule(value: { role_id: number; foreman?: number | null }, ctx: z.RefinementCtx) {
  if (needsForeman(value.role_id) && value.foreman == null) {
    ctx.addIssue({ code: 'custom', path: ['foreman'], message: MSG.foreman });
  }
}

/** POST /crew {crew}: a new member. */
export const crewCreate = z.object(fields).superRefine(foremanRule);
export type CrewCreate = z.infer<typeof crewCreate>;

/** PUT /crew/{id} {crew}: the email is read-only when editing, so it may be left out. */
export const crewUpdate = z.object({ ...fields, email: fields.email.optional() }).superRefine(foremanRule);
export type CrewUpdate = z.infer<typeof crewUpdate>;

/** docs/product/entities.md §9 Crew member, as GET /crew/allCrew lists it. */
export const crewMember = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  role_id: z.number(),
  display_role_name: z.string(),
  crew_status: z.number(),
  foreman: z.number().nullable(),
  foreman_firstname: z.string().nullable(),
  foreman_lastname: z.string().nullable(),
  status_name: z.string(),
  date_created: z.string(),
  /** True until the member sets a password through their invitation. */
  invitation_pending: z.boolean(),
});
export type CrewMember = z.infer<typeof crewMember>;

/** docs/product/entities.md §9 Foreman option: /crew/foremen and /crew/working_foremen. */
export const foremanOption = z.object({ id: z.number(), first_name: z.string(), last_name: z.string() });
export type ForemanOption = z.infer<typeof foremanOption>;

/** /crew/foreman-crew: a foreman option plus the member's role, so a caller can pick working foremen. */
export const foremanCrewMember = foremanOption.extend({ role_id: z.number(), display_role_name: z.string() });
export type ForemanCrewMember = z.infer<typeof foremanCrewMember>;

export const crewSaveReply = z.object({
  success: z.boolean(),
  crew: crewMember,
  /** False when the member was saved but the invitation mail could not be sent. */
  invited: z.boolean().optional(),
  message: z.string().optional(),
});
export type CrewSaveReply = z.infer<typeof crewSaveReply>;

export const STATUS_NAME: Record<number, string> = { [CREW_STATUS.ACTIVE]: 'Active', [CREW_STATUS.INACTIVE]: 'Inactive' };

/** The Add/Edit User form's values, before validation (a new user starts active, no role chosen);
 *  the form checks them with `crewCreate`. */
export interface CrewFormValues {
  crew_status: number;
  role_id: number | null;
  foreman: number | null;
  first_name: string;
  last_name: string;
  phone_number: string;
  email: string;
}

export const emptyCrewForm = (): CrewFormValues => ({
  crew_status: CREW_STATUS.ACTIVE,
  role_id: null,
  foreman: null,
  first_name: '',
  last_name: '',
  phone_number: '',
  email: '',
});
