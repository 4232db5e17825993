// Lint enforces the layer table of DESIGN.md: who may import what. A violation is an error, not a warning.
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), 'node:*'];
const nativeModules = ['better-sqlite3', 'node-pty', 'keytar'];

/** One no-restricted-imports rule: exact module names plus path patterns, each with the reason shown to the developer. */
function restrict(layer, { names = [], patterns = [] }) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: names.map((name) => ({ name, message: `${layer} may not import "${name}" (see the layer table in DESIGN.md).` })),
        // A pattern is a glob, or [glob, ...exceptions] where an exception is a "!glob" the rule lets through, or
        // { group, message } with its own message.
        patterns: patterns.map((entry) => {
          if (!Array.isArray(entry) && typeof entry === 'object') return entry;
          const group = Array.isArray(entry) ? entry : [entry];
          return { group, message: `${layer} may not import from ${group[0]} (see the layer table in DESIGN.md).` };
        }),
      },
    ],
  };
}

/** What no renderer file may import (the renderer row of the layer table). */
const renderer = { names: [...nodeBuiltins, ...nativeModules, 'electron', 'ws'], patterns: ['**/src-main/**', 'node:*', '**/preload'] };

/**
 * The renderer's own layers: a feature (src-renderer/features/<X>) imports src-renderer/ui (the shared layer),
 * src-renderer/bridge, the bridge folders of src-preload and its own folder; never another feature and never
 * src-renderer/app, which composes features into pages. ui/ imports neither features nor app. no-restricted-imports
 * matches import strings, so each feature gets a block naming the others (a sibling is "../<Y>/…"). A later block's
 * options replace the renderer block's, so each repeats the renderer's restrictions.
 */
const rendererFeatures = readdirSync(new URL('./src-renderer/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const toApp = {
  group: ['**/app/**'],
  message: 'A renderer feature or ui/ may not import src-renderer/app: app composes features, not the other way round (see the layer table in DESIGN.md).',
};
const featureBlocks = rendererFeatures.map((feature) => ({
  files: [`src-renderer/features/${feature}/**/*.{ts,tsx}`],
  rules: restrict(`The renderer feature ${feature}`, {
    names: renderer.names,
    patterns: [
      ...renderer.patterns,
      toApp,
      ...rendererFeatures
        .filter((other) => other !== feature)
        .map((other) => ({
          group: [`../${other}`, `../${other}/**`, `**/features/${other}/**`],
          message: `The renderer feature ${feature} may not import the feature ${other}: move what both use to src-renderer/ui/, or compose them in src-renderer/app/ (see the layer table in DESIGN.md).`,
        })),
    ],
  }),
}));

/** The host row of the layer table. */
function hostRules() {
  return restrict('The host (src-main/node)', {
    names: ['electron', 'react', 'react-dom', 'zustand', 'ws'],
    // **/server/** means src-main/server; the MCP SDK's own server modules are a library, not that layer.
    patterns: ['**/src-renderer/**', '**/electron-main/**', ['**/server/**', '!@modelcontextprotocol/sdk/server/**'], '**/cli/**', '@xterm/*'],
  });
}

/**
 * One error vocabulary (src-main/node/base/domainError.ts): domain code throws DomainErrors with a kind, and only the
 * handler edge turns them into the contract's wire errors. So no host file but the edge names RpcError or the codes.
 */
const hostErrorEdge = ['src-main/node/handlerErrors.ts'];
function withWireErrorsRefused(rules) {
  const [level, options] = rules['no-restricted-imports'];
  const wireErrors = {
    group: ['**/src-preload/contract', '**/src-preload/contract/index', '**/src-preload/contract/errors'],
    importNames: ['RpcError', 'ErrorCode', 'ErrorBody', 'invalidParams'],
    message:
      'Host domain code throws a DomainError with a kind (src-main/node/base/domainError.ts); only the handler edge (src-main/node/handlerErrors.ts) makes wire errors (see DESIGN.md).',
  };
  return { 'no-restricted-imports': [level, { ...options, patterns: [...options.patterns, wireErrors] }] };
}

const outsideBridge = ['**/src-main/**', '**/src-renderer/**', '**/electron-main/**', '**/node/**', '**/server/**', '**/cli/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'release/**', 'test-results/**', 'playwright-report/**', '.cache/**', 'assets/agents/**', 'agents/**/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src-preload/contract/**/*.ts', 'src-preload/rpc/**/*.ts'],
    rules: restrict('The bridge (src-preload/contract, src-preload/rpc)', {
      names: [...nodeBuiltins, ...nativeModules, 'electron', 'react', 'react-dom', 'zustand', 'ws'],
      patterns: [...outsideBridge, 'node:*', '@xterm/*'],
    }),
  },
  {
    files: ['src-main/node/**/*.ts'],
    ignores: hostErrorEdge,
    rules: withWireErrorsRefused(hostRules()),
  },
  {
    files: hostErrorEdge,
    rules: hostRules(),
  },
  {
    files: ['src-main/server/**/*.ts', 'src-main/cli/**/*.ts'],
    rules: restrict('The headless server and CLI', {
      names: ['electron', 'react', 'react-dom', 'zustand'],
      patterns: ['**/src-renderer/**', '**/electron-main/**', '@xterm/*'],
    }),
  },
  {
    files: ['src-main/electron-main/**/*.ts'],
    rules: restrict('The Electron shell', { names: ['react', 'react-dom', 'zustand'], patterns: ['**/src-renderer/**', '@xterm/*'] }),
  },
  {
    files: ['src-preload/preload.ts'],
    rules: restrict('The preload', {
      names: [...nodeBuiltins, ...nativeModules, 'react', 'react-dom', 'zustand', 'ws'],
      patterns: ['**/src-main/**', '**/src-renderer/**', 'node:*'],
    }),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: restrict('The renderer', renderer),
  },
  ...featureBlocks,
  {
    files: ['src-renderer/ui/**/*.{ts,tsx}'],
    rules: restrict('The renderer\'s shared layer (src-renderer/ui)', {
      names: renderer.names,
      patterns: [
        ...renderer.patterns,
        toApp,
        {
          group: ['**/features/**'],
          message: 'src-renderer/ui is the shared layer: it may not import a feature (see the layer table in DESIGN.md).',
        },
      ],
    }),
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' },
    },
  },
);
