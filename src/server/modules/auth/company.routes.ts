import { companyReply, companyUpdate } from '../../../shared/company.schemas';
import type { App, AppContext } from '../../context';
import * as service from './company.service';

/** The caller's company and its settings (its time zone: docs/product/records.md §3 "daily digest", decision 046; its evidence settings: §7, §8, decision 047). */
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
        summary:
          "Change the company's settings (Admin), each optional: time_zone, an IANA name such as America/New_York (the daily digest goes out at 06:00 there); evidence_radius_m (5–5000, photos farther from the pole are flagged far_from_pole); evidence_photos_required (0–10, 0 turns the evidence rule off)",
        body: companyUpdate,
        response: { 200: companyReply },
      },
    },
    async (request) => ({ company: await service.updateCompany(ctx, request.user.companyId, request.body) }),
  );
}
