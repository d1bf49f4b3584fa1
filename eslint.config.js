import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

const features = ['auth', 'account', 'jobs', 'tickets', 'crew'];

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
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // DESIGN §3: app -> features -> components/shared; features never import each other,
      // and the web never reaches into the server.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./src/web/features/${f}`,
              from: './src/web/features',
              except: [`./${f}`],
            })),
            { target: './src/web/features', from: './src/web/app' },
            { target: './src/web/components', from: ['./src/web/features', './src/web/app'] },
            { target: './src/web', from: './src/server' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [{ target: './src/shared', from: ['./src/server', './src/web'] }] }],
    },
  },
);
