import { z } from 'zod';
import { LIMITS } from './constants';
import { latitudeSchema, longitudeSchema } from './geo.schemas';
import { codeText } from './text';

/**
 * Poles and the reference lists of the ticket window (docs/product/entities.md §7 Pole, Spec, Access type; §7 Poles,
 * specs, permits). The server's replies and the web's forms use these shapes. The pole read
 * model (poleSchema) and the pole replies are in tickets.schemas.ts.
 */
const short = z.string().trim().max(LIMITS.shortTextMax);
const optionalShort = short.nullable().optional();
const id = z.number().int().positive().max(2_147_483_647);

/** A pole's place and details: the same fields when a pole is edited and when one is added. */
const poleDetails = {
  street_address: optionalShort,
  geo_lat: latitudeSchema.optional(),
  geo_lon: longitudeSchema.optional(),
  accessibility_id: id.nullable().optional(),
  utility_spec: optionalShort,
  primary_voltage: optionalShort,
  secondary_voltage: optionalShort,
  arc_rating: optionalShort,
  sub_curcuit: optionalShort,
  sap_curcuit: optionalShort,
};

/**
 * The fields of a pole a person edits in the Pole tab (PUT /poles/). Every field is optional:
 * absent keeps the stored value, null clears it. Coordinates are cut to 6 decimals.
 */
export const poleFieldsSchema = z.object({
  pole_id: optionalShort,
  pole_name: codeText().max(LIMITS.shortTextMax).min(1, 'Enter a pole name').optional(),
  line_id: optionalShort,
  line_name: codeText().max(LIMITS.shortTextMax).min(1, 'Enter a line name').optional(),
  utility_id_owning_pole: id.nullable().optional(),
  ...poleDetails,
});
export type PoleFields = z.infer<typeof poleFieldsSchema>;

/** PUT /poles/ body: `{pole}` with its id; read-only fields of the read model are dropped. */
export const poleUpdateBody = z.object({ pole: poleFieldsSchema.extend({ id }) });

/**
 * POST /poles/ (docs/product/api.md §5, docs/product/rules.md §1.3): `{pole_name, line_name, utility, pole_id, line_id, due_date}`
 * where utility is the utility's id, optionally with `job_id` (then the ticket for the pole is
 * created in that job at once, docs/product/rules.md §2.2) and any other pole field. Empty texts are accepted here
 * so that the service answers with the one docs/product/rules.md message.
 */
export const addPoleBody = z.object({
  pole_name: codeText().max(LIMITS.shortTextMax).nullable().optional(),
  line_name: codeText().max(LIMITS.shortTextMax).nullable().optional(),
  /** The utility's id (a number, or its digits as text; -1 or empty = none chosen). */
  utility: z.union([z.number().int(), z.string().max(20)]).nullable().optional(),
  pole_id: optionalShort,
  line_id: optionalShort,
  due_date: z.string().max(30).nullable().optional(),
  job_id: id.nullable().optional(),
  ...poleDetails,
});
export type AddPoleBody = z.infer<typeof addPoleBody>;

/** The add-pole fields required by docs/product/rules.md, checked the same way in the web and on the server. */
export function addPoleMissing(p: { pole_name?: string | null; line_name?: string | null; utility?: number | string | null }): boolean {
  const utility = Number(p.utility);
  return !p.pole_name?.trim() || !p.line_name?.trim() || !Number.isInteger(utility) || utility <= 0;
}

// ---------------------------------------------------------------------------------------------
// Searches (prefix, case-insensitive, at most POLE_SEARCH_LIMIT rows, in pole then line order)

export const POLE_SEARCH_LIMIT = 50;
const searchText = z.string().max(100).optional();

/** GET /poles/byUtility: utility is a utility id or code; empty means every utility. */
export const byUtilityQuery = z.object({ utility: searchText, pole: searchText, line: searchText });
/** GET /poles/polesByPoleOrLine: porlType 'pole' searches by pole, 'line' by line, else both. */
export const byPoleOrLineQuery = z.object({ pole: searchText, line: searchText, porlType: searchText });
/** GET /poles/specificPole: the exact pole (case-insensitive) on that line of that utility. */
export const specificPoleQuery = z.object({ pole: searchText, line: searchText, utility: searchText });

// ---------------------------------------------------------------------------------------------
// Reference lists

export const accessTypeSchema = z.object({ id: z.number().int(), title: z.string() });
export const permitTypeSchema = z.object({ id: z.number().int(), title: z.string() });
export const specSchema = z.object({ spec_number: z.string() });
export const specsQuery = z.object({ partial: searchText });
export const SPEC_SEARCH_LIMIT = 50;
export type AccessType = z.infer<typeof accessTypeSchema>;
export type PermitType = z.infer<typeof permitTypeSchema>;
export type Spec = z.infer<typeof specSchema>;

/** GET /units?search=&utility_id=: a unit of the company's library (docs/product/roles-and-statuses.md §1), as the task pickers list it. */
export const unitOptionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  family: z.string(),
  type: z.string(),
  action: z.string(),
  uom: z.string(),
  utility_id: z.number().int(),
});
export type UnitOption = z.infer<typeof unitOptionSchema>;
