import { JOB_SORT_DEFAULT } from '../../../shared/jobs.list';
import { jobListRowSchema, type JobPageQuery, type JobPageReply } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { badRequest } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { inShapeOrder } from '../../plugins/routes';
import { jobPercents } from '../production/production.service';
import { countJobPage, selectJobPageKeys, sortKey, type KeyKind, type Keyset } from './jobs-page.repository';
import { selectJobPage } from './jobs.repository';
import { toListItem } from './jobs.service';

/** A page's rows as the schema's serializer would send them: the route sends the page as JSON text (jobs.routes.ts). */
const inRowOrder = inShapeOrder(jobListRowSchema);

/**
 * GET /jobs?limit= (docs/product/scale.md §2, decision 053): one page of the company's jobs,
 * filtered, searched and sorted by the database. Four statements whatever the company's size:
 * the page's ids (keyset), the total, then those jobs' rows and % complete.
 */
export async function jobPage(ctx: AppContext, me: CurrentUser, query: JobPageQuery & { limit: number }): Promise<JobPageReply> {
  const { companyId } = me;
  const sort = query.sort ?? JOB_SORT_DEFAULT.column;
  const dir = query.dir ?? JOB_SORT_DEFAULT.direction;
  const status = query.status ?? 'All';
  const q = query.q ?? '';
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, companyId, sort, dir, sortKey(companyId, sort).kind);
  const [keys, total] = await Promise.all([
    selectJobPageKeys(ctx.db, companyId, { status, q, sort, dir, after, limit: query.limit + 1 }),
    countJobPage(ctx.db, companyId, { status, q }),
  ]);
  const page = keys.slice(0, query.limit);
  const ids = page.map((k) => k.id);
  const [rows, percents] = ids.length ? await Promise.all([selectJobPage(ctx.db, companyId, ids), jobPercents(ctx.db, companyId, ids)]) : [[], new Map<number, number>()];
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A job deleted between the two reads is simply not on the page.
  const jobs = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [inRowOrder({ ...toListItem(row), percent_complete: percents.get(id) ?? 0 })] : [];
  });
  const last = page[page.length - 1];
  const next_cursor = keys.length > query.limit && last ? encodeCursor({ c: companyId, s: sort, d: dir, k: last.k, i: last.id }) : null;
  // Keys in jobPageReply's order, as its serializer would send them.
  return { jobs, next_cursor, total };
}

/**
 * The cursor: where the page ended, for which company, sort and direction; base64url JSON, opaque
 * to callers. Another company's cursor, or one of another sort, is refused (400) rather than read
 * as a position: it says nothing about this company's jobs.
 */
interface Cursor {
  c: number;
  s: string;
  d: string;
  k: string | number;
  i: number;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(text: string, companyId: number, sort: string, dir: string, kind: KeyKind): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const c = parsed as Partial<Cursor> | null;
  const keyFits =
    kind === 'number'
      ? typeof c?.k === 'number' && Number.isFinite(c.k)
      : kind === 'date'
        ? typeof c?.k === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(c.k)
        : typeof c?.k === 'string' && c.k.length <= 4000;
  if (!c || typeof c !== 'object' || c.c !== companyId || c.s !== sort || c.d !== dir || !keyFits || !Number.isSafeInteger(c.i) || c.i! < 1) {
    throw badRequest(MSG.jobsPageCursor, { cursor: MSG.jobsPageCursor });
  }
  return { key: c.k!, id: c.i! };
}
