import { sql } from 'drizzle-orm';
import { DEFAULT_ROLE_NAMES, ROLE } from '../../../shared/constants';
import type { AppContext } from '../../context';
import { hashPassword } from '../../modules/auth/passwords';
import { insertCompany, insertUser } from '../../modules/auth/auth.repository';
import { accessTypes, companies, jobs, notes, permitTypes, poles, specs, tickets, ticketTasks, units, utilities, workOrders } from '../schema/index';

export const DEMO_PASSWORD = 'linecrew';

/** Seeds the demo companies of docs/product/platform.md §1 when the database has no company yet. */
export async function seedIfEmpty(ctx: Pick<AppContext, 'db'>): Promise<boolean> {
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)` }).from(companies);
  if (Number(n) > 0) return false;
  await seedDemo(ctx);
  return true;
}

const UNITS: [code: string, description: string, family: string, type: string, action: string, uom: string][] = [
  ['P40-2', 'Pole, wood, 40 ft class 2', 'Poles', 'Material', 'Install', 'EA'],
  ['P45-2', 'Pole, wood, 45 ft class 2', 'Poles', 'Material', 'Install', 'EA'],
  ['PR', 'Remove pole', 'Poles', 'Labor', 'Remove', 'EA'],
  ['XA8', 'Crossarm, 8 ft', 'Framing', 'Material', 'Install', 'EA'],
  ['INS-P', 'Insulator, pin type', 'Framing', 'Material', 'Install', 'EA'],
  ['GUY-D', 'Down guy with anchor', 'Guying', 'Material', 'Install', 'EA'],
  ['TX25', 'Transformer, 25 kVA', 'Transformers', 'Material', 'Install', 'EA'],
  ['TX-R', 'Transformer removal', 'Transformers', 'Labor', 'Remove', 'EA'],
  ['CND-1/0', 'Conductor 1/0 AAAC', 'Conductor', 'Material', 'Install', 'FT'],
  ['CO-100', 'Cutout, 100 A', 'Protection', 'Material', 'Install', 'EA'],
  ['LA-10', 'Lightning arrester, 10 kV', 'Protection', 'Material', 'Install', 'EA'],
  ['GRD', 'Ground rod and wire', 'Grounding', 'Material', 'Install', 'EA'],
  ['TT', 'Tree trimming at pole', 'Clearing', 'Labor', 'Trim', 'HR'],
  ['XFER', 'Transfer facilities to new pole', 'Transfers', 'Labor', 'Transfer', 'EA'],
  ['STUB', 'Top and stub old pole', 'Poles', 'Labor', 'Remove', 'EA'],
];

export async function seedDemo({ db }: Pick<AppContext, 'db'>) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const demo = await insertCompany(tx, 'Demo Line Co', DEFAULT_ROLE_NAMES);
    const other = await insertCompany(tx, 'Other Line Co', DEFAULT_ROLE_NAMES);
    const user = (companyId: number, roleId: number, firstName: string, lastName: string, email: string, extra = {}) =>
      insertUser(tx, { companyId, roleId, firstName, lastName, email, passwordHash, ...extra });

    const admin = await user(demo.id, ROLE.ADMIN, 'Avery', 'Admin', 'admin@example.com', { phoneNumber: '6175550100' });
    await user(demo.id, ROLE.OFFICE_MANAGER, 'Olivia', 'Office', 'office@example.com', { phoneNumber: '6175550101' });
    const foreman = await user(demo.id, ROLE.FOREMAN, 'Frank', 'Foreman', 'foreman@example.com', { phoneNumber: '6175550102' });
    const foreman2 = await user(demo.id, ROLE.FOREMAN, 'Fiona', 'Field', 'fiona@example.com', { phoneNumber: '6175550103' });
    const wf = await user(demo.id, ROLE.WORKING_FOREMAN, 'Walt', 'Working', 'wforeman@example.com', { foremanId: foreman.id });
    const wf2 = await user(demo.id, ROLE.WORKING_FOREMAN, 'Wendy', 'Wire', 'wendy@example.com', { foremanId: foreman.id });
    await user(demo.id, ROLE.LINEMAN, 'Liam', 'Lineman', 'lineman@example.com', { foremanId: foreman.id, phoneNumber: '5550123' });
    await user(demo.id, ROLE.APPRENTICE, 'Ava', 'Apprentice', 'apprentice@example.com', { foremanId: foreman.id });
    await user(demo.id, ROLE.LINEMAN, 'Luis', 'Lopez', 'luis@example.com', { foremanId: foreman2.id });
    await user(demo.id, ROLE.LINEMAN, 'Ray', 'Retired', 'ray@example.com', { foremanId: foreman2.id, crewStatus: 2 });
    await user(other.id, ROLE.ADMIN, 'Otto', 'Other', 'admin@other.example.com');

    const [ngrid, eversource] = await tx
      .insert(utilities)
      .values([
        { companyId: demo.id, code: 'NGRID' },
        { companyId: demo.id, code: 'EVERSOURCE' },
        { companyId: demo.id, code: 'UNITIL' },
      ])
      .returning();
    const [otherUtility] = await tx.insert(utilities).values({ companyId: other.id, code: 'OTHERPOWER' }).returning();
    await tx.insert(specs).values(['S-100', 'S-110', 'S-120', 'S-200', 'S-210', 'T-300'].map((specNumber) => ({ companyId: demo.id, specNumber })));
    const [bucket] = await tx
      .insert(accessTypes)
      .values(['Bucket truck', 'Climb only', 'Off-road / track machine', 'Backyard'].map((title) => ({ companyId: demo.id, title })))
      .returning();
    await tx.insert(permitTypes).values(['Town / City', 'State DOT', 'Railroad', 'Police detail'].map((title) => ({ companyId: demo.id, title })));
    const lib = await tx
      .insert(units)
      .values(
        UNITS.map(([code, description, family, type, action, uom]) => ({
          companyId: demo.id,
          utilityId: ngrid.id,
          code,
          description,
          family,
          type,
          action,
          uom,
          notes: '',
        })),
      )
      .returning();
    await tx.insert(units).values(UNITS.slice(0, 6).map(([code, description]) => ({ companyId: demo.id, utilityId: eversource.id, code, description })));
    await tx.insert(units).values({ companyId: other.id, utilityId: otherUtility.id, code: 'OTHER-1', description: 'Other company unit' });

    const streets = ['Main St', 'Elm St', 'Oak Ave', 'River Rd', 'Mill St', 'Pine St', 'Church St', 'High St'];
    const poleRows = await tx
      .insert(poles)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          companyId: demo.id,
          utilityId: i < 9 ? ngrid.id : eversource.id,
          poleId: `P-${1000 + i}`,
          poleName: String(10 + i),
          lineId: i < 6 ? 'L-12' : 'L-7',
          lineName: i < 6 ? '12' : '7',
          streetAddress: `${100 + i * 12} ${streets[i % streets.length]}, Springfield MA`,
          geoLat: i % 4 === 3 ? null : 42.101 + i * 0.0013,
          geoLon: i % 4 === 3 ? null : -72.589 - i * 0.0011,
          accessibilityId: bucket.id,
          utilitySpec: 'S-100',
          primaryVoltage: '13.8 kV',
          secondaryVoltage: '240 V',
          arcRating: '8 cal/cm²',
          subCurcuit: 'Springfield Sub',
          sapCurcuit: `SPR-${i < 6 ? 12 : 7}`,
        })),
      )
      .returning();
    await tx.insert(poles).values({ companyId: other.id, utilityId: otherUtility.id, poleName: '1', lineName: '1' });

    const due = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const [j1, j2, j3] = await tx
      .insert(jobs)
      .values([
        {
          companyId: demo.id,
          jobNumber: 'J-1001',
          jobType: 0,
          createdBy: admin.id,
          foremanId: foreman.id,
          dueDate: due(30),
          utilityId: ngrid.id,
          workContactPhone: '6175550199',
          hospitalName: 'Baystate Medical Center',
          hospitalAddress: '759 Chestnut St, Springfield MA',
        },
        { companyId: demo.id, jobNumber: 'J-1002', jobType: 1, createdBy: admin.id, foremanId: foreman2.id, dueDate: due(60), utilityId: ngrid.id },
        { companyId: demo.id, jobNumber: 'J-1003', jobType: 0, createdBy: foreman.id, foremanId: foreman.id, dueDate: due(-10), utilityId: eversource.id },
      ])
      .returning();
    await tx.insert(jobs).values({ companyId: other.id, jobNumber: 'J-1001', createdBy: null, dueDate: due(30), utilityId: otherUtility.id });

    const ticketPlan: { job: number; pole: number; done?: boolean; assigned?: number; digsafe?: number; nra?: number }[] = [
      { job: j1.id, pole: 0, assigned: wf.id, digsafe: 1 },
      { job: j1.id, pole: 1, assigned: wf.id, nra: 1 },
      { job: j1.id, pole: 2, assigned: wf2.id, done: true },
      { job: j1.id, pole: 3 },
      { job: j1.id, pole: 6, digsafe: 1, nra: 1 },
      { job: j2.id, pole: 4 },
      { job: j2.id, pole: 5 },
      { job: j3.id, pole: 9, done: true, assigned: wf2.id },
      { job: j3.id, pole: 10, done: true, assigned: wf2.id },
    ];
    for (const [i, plan] of ticketPlan.entries()) {
      const pole = poleRows[plan.pole];
      const [ticket] = await tx
        .insert(tickets)
        .values({
          companyId: demo.id,
          jobId: plan.job,
          poleId: pole.id,
          dueDate: due(20 + i),
          assignedTo: plan.assigned ?? null,
          streetAddress: pole.streetAddress,
          geoLat: pole.geoLat,
          geoLon: pole.geoLon,
          description: `Replace pole ${pole.poleName} on line ${pole.lineName} and transfer facilities.`,
          digSafeRequired: plan.digsafe ?? 0,
          nraRequired: plan.nra ?? 0,
          actualCompletionDate: plan.done ? new Date(Date.now() - (i + 1) * 86_400_000) : null,
        })
        .returning();
      const jobUnits = plan.job === j3.id ? [] : lib;
      if (jobUnits.length) {
        await tx.insert(ticketTasks).values([
          { companyId: demo.id, ticketId: ticket.id, unitId: jobUnits[i % 3].id, initQty: 1, additionalQty: plan.done ? 0 : 0 },
          { companyId: demo.id, ticketId: ticket.id, unitId: jobUnits[3 + (i % 5)].id, initQty: 2, additionalQty: i % 2 },
        ]);
      }
      await tx.insert(workOrders).values({ companyId: demo.id, ticketId: ticket.id, workOrder: `WO-${5000 + i}` });
      await tx.insert(notes).values({
        companyId: demo.id,
        ticketId: ticket.id,
        authorId: foreman.id,
        noteText: i % 2 ? 'Customer asked for a call before the crew arrives.' : 'Access from the driveway; watch the overhead service drop.',
      });
    }
  });
}
