import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// DESIGN §3 layering, with ESLint's own no-restricted-imports (a resolver plugin's native
// bindings break `npm ci` on npm 11): app -> features -> components/api/shared; features never
// import each other; the web never reaches into the server; shared imports neither side.
const features = ['auth', 'jobs', 'tickets', 'crew', 'work'];
const up = '^(\\.\\./)+';
const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noServer = { regex: `${up}server(/|$)`, message: 'The web app never imports server code; share it through src/shared.' };

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
  {
    files: ['src/web/components/**/*.{ts,tsx}', 'src/web/api/**/*.{ts,tsx}', 'src/web/offline/**/*.{ts,tsx}'],
    rules: rule([noServer, { regex: `${up}(features|app)(/|$)`, message: 'Shared web code must not depend on a feature or on the app shell.' }]),
  },
  ...features.map((f) => ({
    files: [`src/web/features/${f}/**/*.{ts,tsx}`],
    rules: rule([
      noServer,
      {
        regex: `${up}(features/)?(${features.filter((o) => o !== f).join('|')})(/|$)`,
        message: 'Features never import each other (DESIGN §3): move what both need to src/web/components or src/shared.',
      },
      { regex: `${up}app(/|$)`, message: 'Features must not import the app shell.' },
    ]),
  })),
  {
    files: ['src/shared/**/*.ts'],
    rules: rule([{ regex: `${up}(server|web)(/|$)`, message: 'src/shared is imported by both sides and imports neither.' }]),
  },
);
