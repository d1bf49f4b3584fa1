import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Layering (docs/product/platform.md §3; docs/decisions/041-modules-and-layers-depend-one-way.md), with ESLint's own
// no-restricted-imports (a resolver plugin's native bindings break `npm ci` on npm 11). Each order
// below is written once and the zones are generated from it and from the folders on disk: a new
// folder that is not placed in its order stops the linter with a message saying where to add it.

/** The sub-folders of `dir` (relative to this file), sorted. */
const foldersOf = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** Throws unless `order` names exactly the folders found in `dir` (less those in `skip`). */
function placedOnce(order, dir, name, skip = []) {
  const found = foldersOf(dir).filter((f) => !skip.includes(f));
  const missing = found.filter((f) => !order.includes(f));
  const gone = order.filter((f) => !found.includes(f));
  const twice = order.filter((f, i) => order.indexOf(f) !== i);
  const fixes = [missing.length && `place ${missing.join(', ')} in it`, gone.length && `remove ${gone.join(', ')}`, twice.length && `name ${twice.join(', ')} once`];
  if (fixes.some(Boolean)) throw new Error(`eslint.config.js: ${name} must name each folder of ${dir} once: ${fixes.filter(Boolean).join('; ')}.`);
}

/**
 * The server's modules, bottom first. A module imports only modules below it, and only their
 * `*.service.ts` files (never a repository or another file); none imports a module above it.
 * What a lower module needs from a higher one is handed in by app.ts (poles.service
 * TicketsOfPoles). Shared SQL pieces are in src/server/db/sql.ts, stored files' lifetime in
 * src/server/storage/, the reply cache in src/server/plugins/reply-cache.ts: all below every module.
 */
const SERVER_MODULES = [
  'auth', //        accounts, companies, sessions, throttles
  'history', //     the record of every change: the recorder each service calls, and its reads
  'reference', //   utilities, units, specs, permit types
  'job-record', //  the job row every module looks up: findJob, lockJob, jobFingerprint
  'webhooks', //    endpoints and the event outbox every change writes into (decision 050)
  'crew', //        the roster (auth: invitations; job-record: a job's foreman crew)
  'poles', //       the Pole tab: searches, edits, new poles
  'tickets', //     tickets, tasks, photos, the billed-ticket lock
  'uploads', //     signed uploads, and recording a photo on its ticket
  'imports', //     workbooks into a job (decision 034)
  'production', //  a job's production
  'invoices', //    invoices of a job
  'jobs', //        the /jobs routes: list, job page, save (with its import), delete
  'exports', //     a job as CSV/XLSX
  'work', //        My Work
  'map', //         the map's configuration
  'dashboard', //   the office's figures
  'digest', //      the daily digest e-mail (decision 046)
  'health', //      GET /health
];
placedOnce(SERVER_MODULES, './src/server/modules/', 'SERVER_MODULES');

/**
 * The web app's layers, bottom first: each imports only the layers below it. `api/` is the fetch
 * client (and the network state it reports to); `components/` are building blocks with no
 * feature in them; `offline/` is field mode's store, outbox and their screens, made of
 * components; `features/` never import each other; `app/` is the shell that puts them together.
 */
const WEB_LAYERS = ['api', 'components', 'offline', 'features', 'app'];
placedOnce(WEB_LAYERS, './src/web/', 'WEB_LAYERS', ['public']);
/** Every feature of src/web/features, each a zone of its own. */
const WEB_FEATURES = foldersOf('./src/web/features/');

const anyUp = '^(\\.\\./)+';
/** `../` exactly `n` times: the way from a file `n` folders down back to where it started. */
const upExactly = (n) => `^(\\.\\./){${n}}`;
/** Folder depths a zone covers below its root (src/server/modules/imports/worker/ is 1). */
const DEPTHS = [0, 1, 2, 3];
const filesAt = (root, depth, ext) => `${root}/${'*/'.repeat(depth)}*.${ext}`;
/** Throws if `root` has folders nested deeper than the zones reach: their files would go unchecked. */
function withinDepths(root, levels = DEPTHS.at(-1)) {
  for (const f of foldersOf(`${root}/`)) {
    if (levels === 0) throw new Error(`eslint.config.js: ${root}/${f} is deeper than the import zones reach; add a level to DEPTHS.`);
    withinDepths(`${root}/${f}`, levels - 1);
  }
}
SERVER_MODULES.forEach((m) => withinDepths(`./src/server/modules/${m}`));
WEB_LAYERS.filter((l) => l !== 'features').forEach((l) => withinDepths(`./src/web/${l}`));
WEB_FEATURES.forEach((f) => withinDepths(`./src/web/features/${f}`));
const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noServer = { regex: `${anyUp}server(/|$)`, message: 'The web app never imports server code; share it through src/shared.' };

const serverModuleZones = SERVER_MODULES.flatMap((name, i) => {
  const below = SERVER_MODULES.slice(0, i);
  const above = SERVER_MODULES.slice(i + 1);
  return DEPTHS.map((depth) => {
    const up = upExactly(depth + 1);
    const patterns = [];
    if (above.length) {
      patterns.push({
        regex: `${up}(${above.join('|')})(/|$)`,
        message: `The ${name} module sits below that module in SERVER_MODULES (eslint.config.js): it never imports it. Move what both need down, or have app.ts hand it in (decision 041).`,
      });
    }
    if (below.length) {
      patterns.push({
        regex: `${up}(${below.join('|')})/(?![^/]+\\.service$)`,
        message: 'Another module is used only through its *.service.ts, never its repository or other files: export what is needed from that service (decision 041).',
      });
    }
    return { files: [filesAt(`src/server/modules/${name}`, depth, '{ts,mts,js,mjs}')], rules: rule(patterns) };
  });
});

const webLayerZones = WEB_LAYERS.filter((l) => l !== 'features').flatMap((layer) => {
  const above = WEB_LAYERS.slice(WEB_LAYERS.indexOf(layer) + 1);
  return DEPTHS.map((depth) => ({
    files: [filesAt(`src/web/${layer}`, depth, '{ts,tsx}')],
    rules: rule([
      noServer,
      ...(above.length
        ? [{ regex: `${upExactly(depth + 1)}(${above.join('|')})(/|$)`, message: `src/web/${layer} sits below ${above.join(', ')} in WEB_LAYERS (eslint.config.js): it never imports them (decision 041).` }]
        : []),
    ]),
  }));
});

const webFeatureZones = WEB_FEATURES.flatMap((feature) => {
  const others = WEB_FEATURES.filter((o) => o !== feature);
  return DEPTHS.map((depth) => ({
    files: [filesAt(`src/web/features/${feature}`, depth, '{ts,tsx}')],
    rules: rule([
      noServer,
      {
        regex: `(${upExactly(depth + 1)}|${upExactly(depth + 2)}features/)(${others.join('|')})(/|$)`,
        message: 'Features never import each other (docs/product/platform.md §3): move what both need to src/web/components or src/shared.',
      },
      { regex: `${upExactly(depth + 2)}app(/|$)`, message: 'Features must not import the app shell (WEB_LAYERS, eslint.config.js).' },
    ]),
  }));
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...serverModuleZones,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...rule([noServer]),
      // One place for query keys, so that what one feature changes another refreshes.
      'no-restricted-syntax': [
        'error',
        { selector: 'Property[key.name="queryKey"] > ArrayExpression', message: 'Build query keys in src/web/api/queryKeys.ts.' },
      ],
    },
  },
  ...webLayerZones,
  ...webFeatureZones,
  {
    files: ['src/shared/**/*.ts'],
    rules: rule([{ regex: `${anyUp}(server|web)(/|$)`, message: 'src/shared is imported by both sides and imports neither.' }]),
  },
);
