// Lint enforces the layer table of DESIGN.md: who may import what. A violation is an error, not a warning.
import js from '@eslint/js';
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
        // A pattern is a glob, or [glob, ...exceptions] where an exception is a "!glob" the rule lets through.
        patterns: patterns.map((entry) => {
          const group = Array.isArray(entry) ? entry : [entry];
          return { group, message: `${layer} may not import from ${group[0]} (see the layer table in DESIGN.md).` };
        }),
      },
    ],
  };
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
    rules: restrict('The host (src-main/node)', {
      names: ['electron', 'react', 'react-dom', 'zustand', 'ws'],
      // **/server/** means src-main/server; the MCP SDK's own server modules are a library, not that layer.
      patterns: ['**/src-renderer/**', '**/electron-main/**', ['**/server/**', '!@modelcontextprotocol/sdk/server/**'], '**/cli/**', '@xterm/*'],
    }),
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
    rules: restrict('The renderer', {
      names: [...nodeBuiltins, ...nativeModules, 'electron', 'ws'],
      patterns: ['**/src-main/**', 'node:*', '**/preload'],
    }),
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' },
    },
  },
);
