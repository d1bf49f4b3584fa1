import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { companies } from './core';
import { accessTypes, utilities } from './reference';

/** A physical pole on a line, owned by a utility (docs/product/entities.md §7 Pole). */
export const poles = pgTable(
  'poles',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    utilityId: integer('utility_id').references(() => utilities.id, { onDelete: 'set null' }),
    /** The utility's own identifiers, free text (SPEC: pole_id, line_id). */
    poleId: text('pole_id'),
    poleName: text('pole_name').notNull(),
    lineId: text('line_id'),
    lineName: text('line_name').notNull(),
    streetAddress: text('street_address'),
    geoLat: doublePrecision('geo_lat'),
    geoLon: doublePrecision('geo_lon'),
    accessibilityId: integer('accessibility_id').references(() => accessTypes.id, { onDelete: 'set null' }),
    utilitySpec: text('utility_spec'),
    primaryVoltage: text('primary_voltage'),
    secondaryVoltage: text('secondary_voltage'),
    arcRating: text('arc_rating'),
    subCurcuit: text('sub_curcuit'),
    sapCurcuit: text('sap_curcuit'),
    /**
     * The job whose import created the pole (decision 027): hidden while that job's import is
     * pending, removed if it fails. No foreign key: the pole outlives its job.
     */
    importJobId: integer('import_job_id'),
  },
  (t) => [
    index('poles_lookup_idx').on(t.companyId, t.utilityId, t.poleName, t.lineName),
    index('poles_line_idx').on(t.companyId, t.lineName),
    // An import finds the utility's poles by trimmed, lower-case name (import.repository.ts
    // polesNamed), 1,000 names a statement: without it each statement filtered every pole of the
    // utility, several times slower with 15,000 poles.
    index('poles_name_key_idx').on(t.companyId, t.utilityId, sql`lower(trim(${t.poleName}))`),
    // Prefix searches of the ticket window (lower(name) LIKE 'abc%'), whatever the collation.
    index('poles_pole_prefix_idx').on(t.companyId, sql`lower(${t.poleName}) text_pattern_ops`),
    index('poles_line_prefix_idx').on(t.companyId, sql`lower(${t.lineName}) text_pattern_ops`),
  ],
);
