import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The one-way orders of eslint.config.js (docs/decisions/041-modules-and-layers-depend-one-way.md), checked on
 * the import lines themselves: what the linter must refuse, and what it must let through.
 */

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });
});

/** The messages no-restricted-imports gives `line` in a file at `filePath` (need not exist). */
async function refusals(filePath: string, line: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${line}\nexport const used = x;\n`, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('server modules depend one way, through services', () => {
  it('refuses an import of a module above', async () => {
    expect(await refusals('src/server/modules/crew/crew.service.ts', "import { x } from '../jobs/jobs.service';")).toEqual([
      expect.stringContaining('sits below that module in SERVER_MODULES'),
    ]);
    expect(await refusals('src/server/modules/tickets/tickets.service.ts', "import { x } from '../invoices/invoices.service';")).toHaveLength(1);
    // From a sub-folder too.
    expect(await refusals('src/server/modules/imports/worker/pool.ts', "import { x } from '../../jobs/jobs.service';")).toHaveLength(1);
  });

  it("refuses a lower module's repository or other file, and lets its service through", async () => {
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from '../crew/crew.repository';")).toEqual([
      expect.stringContaining('only through its *.service.ts'),
    ]);
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from '../imports/plan';")).toHaveLength(1);
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from '../imports/worker/off-thread';")).toHaveLength(1);
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from '../crew/crew.service';")).toEqual([]);
    expect(await refusals('src/server/modules/uploads/uploads.routes.ts', "import { x } from '../tickets/images.service';")).toEqual([]);
  });

  it("lets a module's own folders and the shared layers through", async () => {
    expect(await refusals('src/server/modules/imports/worker/pool.ts', "import { x } from '../read/workbook';")).toEqual([]);
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from './jobs.repository';")).toEqual([]);
    expect(await refusals('src/server/modules/jobs/jobs.service.ts', "import { x } from '../../db/sql';")).toEqual([]);
  });
});

describe('the web app depends one way: api, components, offline, features, app', () => {
  it('refuses an import of a layer above', async () => {
    expect(await refusals('src/web/api/client.ts', "import { x } from '../offline/outbox';")).toEqual([expect.stringContaining('WEB_LAYERS')]);
    expect(await refusals('src/web/components/form.ts', "import { x } from '../offline/outbox';")).toHaveLength(1);
    expect(await refusals('src/web/components/map/TicketMap.tsx', "import { x } from '../../features/jobs/JobsPage';")).toHaveLength(1);
    expect(await refusals('src/web/offline/outbox.ts', "import { x } from '../app/router';")).toHaveLength(1);
    expect(await refusals('src/web/features/tickets/InfoTab.tsx', "import { x } from '../../app/router';")).toHaveLength(1);
  });

  it('lets a layer import the layers below it', async () => {
    expect(await refusals('src/web/offline/outbox.ts', "import { x } from '../api/client';")).toEqual([]);
    expect(await refusals('src/web/offline/logout.ts', "import { x } from '../components/confirm';")).toEqual([]);
    expect(await refusals('src/web/features/tickets/api/ticket.ts', "import { x } from '../../../api/client';")).toEqual([]);
    expect(await refusals('src/web/app/router.tsx', "import { x } from '../features/jobs/JobsPage';")).toEqual([]);
  });

  it('keeps every feature apart, those added last too', async () => {
    expect(await refusals('src/web/features/dashboard/DashboardPage.tsx', "import { x } from '../invoices/InvoicesSection';")).toEqual([
      expect.stringContaining('Features never import each other'),
    ]);
    expect(await refusals('src/web/features/production/ProductionSection.tsx', "import { x } from '../../features/jobs/JobsPage';")).toHaveLength(1);
    expect(await refusals('src/web/features/tickets/api/ticket.ts', "import { x } from '../../invoices/api/x';")).toHaveLength(1);
    // A feature's own api/ folder is not the web's api/ layer.
    expect(await refusals('src/web/features/tickets/TicketWindow.tsx', "import { x } from './api/ticket';")).toEqual([]);
  });
});
