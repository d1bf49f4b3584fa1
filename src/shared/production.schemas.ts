import { z } from 'zod';
import { unitOptionSchema } from './poles.schemas';

/**
 * The contract of unit prices and production (docs/product/billing.md §3): GET /units items with their price,
 * PUT /units/{id}, GET /jobs/{id}/production. Used by the reference and production server
 * modules and by the web Unit Library page and the job's Production view.
 */

/** An amount or a price on the wire: a decimal string with exactly two decimals ("1234.50"). */
export const moneyString = z.string().regex(/^-?\d+\.\d{2}$/);

/**
 * One unit of GET /units. `unit_price` is there for roles 1–3 only (billing.read): the server
 * leaves it out for crews, who must not see what the utility pays.
 */
export const unitLibraryItemSchema = unitOptionSchema.extend({ unit_price: moneyString.nullable().optional() });
export type UnitLibraryItem = z.infer<typeof unitLibraryItemSchema>;

/**
 * PUT /units/{id} with `{unit: {unit_price}}`: a string as a person types it ("$1,234.5"), a
 * number, or null/'' to clear. parsePrice (src/shared/money.ts) checks it on the server and in
 * the form alike; the schema only bounds the size.
 */
export const unitPriceInput = z.union([z.string().max(40), z.number(), z.null()]);
export const unitUpdateBody = z.object({ unit: z.object({ unit_price: unitPriceInput }) });
export type UnitUpdateBody = z.infer<typeof unitUpdateBody>;
export const unitUpdateReply = z.object({ unit: unitLibraryItemSchema });

export const productionUnitSchema = z.object({
  code: z.string(),
  description: z.string(),
  uom: z.string(),
  unit_price: moneyString.nullable(),
  bid_qty: z.number(),
  actual_qty: z.number(),
  completed_qty: z.number(),
  remaining_qty: z.number(),
  bid_amount: moneyString,
  completed_amount: moneyString,
  remaining_amount: moneyString,
});

export const productionTotalsSchema = z.object({
  bid_amount: moneyString,
  completed_amount: moneyString,
  remaining_amount: moneyString,
  billed_amount: moneyString,
  unbilled_completed_amount: moneyString,
  /** 0–100, one decimal. */
  percent_complete: z.number(),
});

/**
 * Totals of the tickets one foreman answers for: the ticket's assigned working foreman when it
 * has one, else the job's foreman; `foreman_id` null (name 'Unassigned') when neither is set.
 */
export const productionForemanSchema = z.object({
  foreman_id: z.number().int().nullable(),
  name: z.string(),
  actual_amount: moneyString,
  completed_amount: moneyString,
  remaining_amount: moneyString,
  percent_complete: z.number(),
  /** This foreman's Complete tickets that are not evidenced (docs/product/records.md §8). */
  not_evidenced: z.number().int(),
});

/** The evidence of the job's completed work (docs/product/records.md §8, src/shared/evidence.ts isEvidenced). */
export const productionEvidenceSchema = z.object({
  complete: z.number().int(),
  evidenced: z.number().int(),
  not_evidenced: z.number().int(),
  /** The company's evidence_photos_required (0: the rule is off, every Complete ticket is evidenced). */
  photos_required: z.number().int(),
});

/** GET /jobs/{id}/production (docs/product/billing.md §3), plus the per-foreman totals of the Production view. */
export const productionReply = z.object({
  units: z.array(productionUnitSchema),
  totals: productionTotalsSchema,
  by_foreman: z.array(productionForemanSchema),
  evidence: productionEvidenceSchema,
});
export type ProductionReply = z.infer<typeof productionReply>;
export type ProductionForeman = z.infer<typeof productionForemanSchema>;
