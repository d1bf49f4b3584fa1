import { parsePrice } from '../../../shared/money';
import type { UnitLibraryItem } from '../../../shared/production.schemas';
import type { DbOrTx } from '../../db/client';
import { badRequest, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { updateUnitPrice } from './units.repository';

/**
 * PUT /units/{id}: the price as a person typed it, checked by the rule the form uses too
 * (parsePrice: 400 with its message on `unit_price`); null or blank clears it. Another company's
 * unit is 404. One statement: the update is scoped by company and returns the unit.
 */
export async function setUnitPrice(db: DbOrTx, me: CurrentUser, id: number, input: string | number | null): Promise<UnitLibraryItem> {
  const price = parsePrice(input);
  if (!price.ok) throw badRequest(price.message, { unit_price: price.message });
  const unit = await updateUnitPrice(db, me.companyId, id, price.value);
  if (!unit) throw notFound('unit');
  return unit;
}
