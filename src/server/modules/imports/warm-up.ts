import { randomUUID } from 'node:crypto';
import { toIsoDate } from '../../../shared/dates';
import type { Db } from '../../db/client';
import { record, recordImportInParts } from '../history/history.service';
import { breathe } from './import.repository';
import * as stagedRepo from './staged-import.repository';
import { writeStagedImport } from './staged-write';
import type { ImportScope } from './types';

/** Thrown inside the warm-up's publishing transaction: it rolls back, and the import is discarded. */
class WarmedUp extends Error {}

/**
 * PGlite only (decision 034): the first import after a start ran every statement of an import for the
 * first time, and on PGlite a statement's first run compiles its code paths (WebAssembly) and
 * loads the tables' catalog entries on the server's thread: 180–250 ms for the first 250 poles
 * against ~20 ms later, 40–200 ms for the first tickets, work orders, units and job row, so GET
 * /health waited 137–194 ms during that import (budget 100 ms), and the import itself was slower.
 * Right after the server listens, this runs an import of one ticket the way a new job's import
 * runs (job row and its history entry, staged units, pole, ticket, work order, task, the import's
 * entries, the publishing transaction), each statement on its own with the event loop given back
 * between two, then rolls the publication back and discards it all as a failed import is
 * discarded (decision 027): the job was hidden throughout, and a process stopped midway leaves a
 * pending job that the next start removes. It leaves gaps of one in the ids, nothing else.
 * It uses the first utility and its company's first user; with none, there is nothing to warm.
 */
export async function warmUpImports(db: Db): Promise<void> {
  const target = await stagedRepo.firstUtilityWithUser(db);
  if (!target) return;
  const { companyId, utilityId, userId } = target;
  const tag = `warm-up ${randomUUID()}`;
  await breathe();
  // As the job save inserts a new job with an import (jobs.service saveJob): hidden, with its creation entry.
  const jobId = await db.transaction(async (tx) => {
    const id = await stagedRepo.insertPendingJob(tx, { companyId, jobNumber: tag, jobType: 0, dueDate: toIsoDate(new Date())!, utilityId, createdBy: userId });
    await record(tx, { id: userId, companyId }, { entity: 'job', entityId: id, jobId: id }, [{ action: 'create', new: { job_number: tag } }]);
    return id;
  });
  const scope: ImportScope = { companyId, jobId, utilityId, userId };
  try {
    const code = tag.toUpperCase();
    const ticket = {
      row: 2,
      pole: { pole_name: tag, line_name: tag, pole_id: null, line_id: null, street_address: null, geo_lat: null, geo_lon: null, primary_voltage: null, secondary_voltage: null, arc_rating: null },
      street_address: null,
      geo_lat: 42.5,
      geo_lon: -71.5,
      due_date: null,
      ehasp: null,
      work_orders: [tag],
      tasks: [{ code, description: '', qty: 1, row: 2 }],
    };
    const library = [{ code, description: tag, family: '', type: '', action: '', uom: 'EA', notes: '', unit_price: null }];
    await writeStagedImport(
      db,
      scope,
      [{ tickets: [ticket], library }],
      async (tx) => {
        await stagedRepo.publishStagedJob(tx, companyId, jobId);
        throw new WarmedUp();
      },
      () => recordImportInParts(db, scope, breathe),
    );
  } catch (err) {
    if (!(err instanceof WarmedUp)) throw err;
  } finally {
    await breathe();
    await stagedRepo.discardStagedImport(db, companyId, jobId);
  }
}
