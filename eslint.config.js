import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ── Web layers (apps/web/src) ─────────────────────────────────────────────────────────────────
// Bottom to top: lib (and config, the route table) ← components ← features ← app. A layer imports
// only from those below it; a feature imports no other feature. One deliberate exception:
// lib/bridge/connect-bridge loads features/bridge-simulator/install-simulator, the demo's stand-in
// for the app, dynamically and only on a demo server (the chunk never loads in production).
const WEB = './apps/web/src';
const webFeatures = readdirSync(new URL('apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webLayers = {
  files: ['apps/web/src/**/*.{ts,tsx}'],
  // A test may look across layers (e.g. the route table against the app's route modules).
  ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    // Which files no-cycle follows (the default is JavaScript only).
    'import-x/extensions': ['.ts', '.tsx'],
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
  },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        zones: [
          {
            target: [`${WEB}/lib`, `${WEB}/config`],
            from: [`${WEB}/components`, `${WEB}/app`],
            message: 'lib and config are the bottom layer: they import no component or app code.',
          },
          {
            target: [`${WEB}/lib`, `${WEB}/config`],
            from: `${WEB}/features`,
            except: ['./bridge-simulator/install-simulator.ts'],
            message: 'lib and config are the bottom layer: they import no feature.',
          },
          {
            target: `${WEB}/components`,
            from: [`${WEB}/features`, `${WEB}/app`],
            message: 'Shared components import only lib: a feature passes them what they show.',
          },
          {
            target: `${WEB}/features`,
            from: `${WEB}/app`,
            message: 'Features do not import the app: the app (routes) imports them.',
          },
          ...webFeatures.map((feature) => ({
            target: `${WEB}/features/${feature}`,
            from: `${WEB}/features`,
            except: [`./${feature}`],
            message:
              'A feature imports no other feature: move what both need to components/ or lib/.',
          })),
        ],
      },
    ],
    'import-x/no-cycle': ['error', { ignoreExternal: true }],
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', 'test-results/**', 'playwright-report/**', 'bench-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Use named exports.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Server-rendered markup must not carry style attributes: the CSP blocks them.
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        {
          selector: "JSXAttribute[name.name='style']",
          message: 'Use a CSS module: the Content-Security-Policy blocks inline style attributes.',
        },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render text as text; HTML comes only from our own build-time content.',
        },
      ],
    },
  },
  webLayers,
  {
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: [
      '**/vite.config.ts',
      '**/vitest.config.ts',
      '**/vitest.*.config.ts',
      'playwright.config.ts',
      'eslint.config.js',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // ---- Server boundaries (apps/server/src; docs in README "How it is built") ----------------
  // Layers, bottom to top: config/, crypto/, db/, http/, plugins/ <- the features <- demo/ <- app.ts,
  // server.ts and the CLIs. A layer imports only from below; tests and test-support/ sit above
  // everything. No import cycles anywhere on the server.
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test-support/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: [
                'apps/server/src/config',
                'apps/server/src/crypto',
                'apps/server/src/db',
                'apps/server/src/http',
                'apps/server/src/plugins',
              ],
              from: 'apps/server/src',
              except: ['./config', './crypto', './db', './http', './plugins'],
              message:
                'config/, crypto/, db/, http/ and plugins/ are the bottom layer: they import no feature, demo or app code.',
            },
            {
              // The features (a new feature folder is added here).
              target: [
                'apps/server/src/account-deletion',
                'apps/server/src/auth',
                'apps/server/src/designs',
                'apps/server/src/health',
                'apps/server/src/media',
                'apps/server/src/membership',
                'apps/server/src/pages',
                'apps/server/src/pictures',
                'apps/server/src/shares',
              ],
              from: [
                'apps/server/src/demo',
                'apps/server/src/test-support',
                'apps/server/src/app.ts',
                'apps/server/src/server.ts',
                'apps/server/src/seed-cli.ts',
                'apps/server/src/delete-accounts-cli.ts',
              ],
              message:
                'Features never reach up: demo/ is loaded by app.ts in demo mode only, and app.ts wires the features.',
            },
          ],
        },
      ],
    },
  },
  {
    // One auth hook style: `onRequest: requireUser(sessions)`, so a stranger is turned away
    // before the body is even parsed (a 401, never a validation error).
    files: ['apps/server/src/**/*-routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        {
          selector: "Property[key.name='preHandler']",
          message: 'Authenticate with `onRequest: requireUser(sessions)` (auth/authenticate.ts).',
        },
      ],
    },
  },
);
