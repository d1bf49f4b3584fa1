import { companyReply, companyUpdate } from '../../../shared/company.schemas';
import type { App, AppContext } from '../../context';
import * as service from './company.service';

/** The caller's company and its settings (its time zone: docs/product/records.md §3 "daily digest", decision 046). */
export async function companyRoutes(app: App, ctx: AppContext) {
  app.get(
    '/company',
    { config: { allow: 'profile' }, schema: { tags: ['account'], summary: "The caller's company and its settings", response: { 200: companyReply } } },
    async (request) => ({ company: await service.companySettings(ctx, request.user.companyId) }),
  );
  app.put(
    '/company',
    {
      config: { allow: 'company.write' },
      schema: {
        tags: ['account'],
        summary: "Change the company's settings (Admin): time_zone, an IANA name such as America/New_York; the daily digest goes out at 06:00 there",
        body: companyUpdate,
        response: { 200: companyReply },
      },
    },
    async (request) => ({ company: await service.updateCompany(ctx, request.user.companyId, request.body) }),
  );
}
