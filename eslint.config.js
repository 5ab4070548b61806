import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ── Web layers (apps/web/src) ─────────────────────────────────────────────────────────────────
// Bottom to top: lib (and config, the route table) ← components ← features ← app. A layer imports
// only from those below it; a feature imports no other feature; tests and test-support/ sit above
// everything.
const WEB = './apps/web/src';
const webFeatures = readdirSync(new URL('apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webLayers = {
  files: ['apps/web/src/**/*.{ts,tsx}'],
  // A test may look across layers (e.g. the route table against the app's route modules), and so
  // may what tests share (test-support/, above every layer).
  ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test-support/**'],
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
            message:
              'lib and config are the bottom layer: they import no feature, not even dynamically (app/ wires features in).',
          },
          {
            target: [
              `${WEB}/lib`,
              `${WEB}/config`,
              `${WEB}/components`,
              `${WEB}/features`,
              `${WEB}/app`,
            ],
            from: `${WEB}/test-support`,
            message: 'test-support/ is for tests only.',
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

// ── Server layers (apps/server/src) ──────────────────────────────────────────────────────────
// Bottom to top: the bottom layer (in its own order, below) ← the features (every other folder)
// ← demo/ and stand-in/ (the demo platform) ← the entry points (the .ts files at the top: app.ts,
// server.ts, the CLIs). A layer imports only from below; tests and test-support/ sit above
// everything.
const SERVER = 'apps/server/src';
/** The bottom layer, each folder importing only those before it: one way, no folder cycles. */
const SERVER_BOTTOM = ['timing', 'crypto', 'config', 'db', 'http', 'plugins'];
const SERVER_ABOVE_FEATURES = ['demo', 'stand-in', 'test-support'];
const serverEntries = readdirSync(new URL(SERVER, import.meta.url), { withFileTypes: true });
const serverFeatures = serverEntries
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => !SERVER_BOTTOM.includes(name) && !SERVER_ABOVE_FEATURES.includes(name));
const serverEntryPoints = serverEntries
  .filter((entry) => entry.isFile() && /(?<!\.test)\.ts$/.test(entry.name))
  .map((entry) => `${SERVER}/${entry.name}`);
const serverLayers = {
  files: [`${SERVER}/**/*.ts`],
  ignores: [`${SERVER}/**/*.test.ts`, `${SERVER}/test-support/**`],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver()] },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...SERVER_BOTTOM.map((folder, index) => ({
            target: `${SERVER}/${folder}`,
            from: SERVER,
            except: SERVER_BOTTOM.slice(0, index + 1).map((below) => `./${below}`),
            message: `${folder}/ is in the bottom layer, which imports one way (${SERVER_BOTTOM.join(' ← ')}: each folder only those to its left) and never a feature, demo or app code.`,
          })),
          {
            target: serverFeatures.map((feature) => `${SERVER}/${feature}`),
            from: SERVER,
            except: [...SERVER_BOTTOM, ...serverFeatures].map((folder) => `./${folder}`),
            message:
              'Features never reach up: demo/ is loaded by app.ts in demo mode only, and app.ts wires the features.',
          },
          {
            target: `${SERVER}/demo`,
            from: [...serverEntryPoints, `${SERVER}/test-support`],
            message: 'demo/ is loaded by app.ts; it imports no entry point nor test support.',
          },
          {
            target: `${SERVER}/demo`,
            from: `${SERVER}/stand-in`,
            message:
              'demo/ never imports stand-in/: the stand-in sends the demo content, and takes what both agree on from demo/stand-in-client.ts.',
          },
          {
            target: `${SERVER}/stand-in`,
            from: [...serverEntryPoints, `${SERVER}/test-support`],
            message:
              'stand-in/ (the demo platform) is started by the entry points; it imports none of them nor test support.',
          },
          {
            target: serverEntryPoints,
            from: `${SERVER}/test-support`,
            message: 'test-support/ is for tests only.',
          },
        ],
      },
    ],
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
  // ---- Server boundaries (apps/server/src; docs/architecture.md "The server") ---------------
  // No import cycles anywhere on the server; the layers, with their zones derived below from the
  // folders themselves, so a new folder is a feature the moment it exists.
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'import-x/no-cycle': 'error' },
  },
  serverLayers,
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
