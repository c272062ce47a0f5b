import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'http',
  'crypto',
  'url',
  'stream',
  'zlib',
  'net',
];
const nodeOnly = nodeBuiltins.flatMap((m) => [m, `node:${m}`, `${m}/*`, `node:${m}/*`]);

/** Node-side code never imports electron itself, nor what `pattern` names. */
const nodeSideImports = (pattern) => [
  'error',
  {
    paths: [
      { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' },
    ],
    patterns: [pattern],
  },
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'resources/samples/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Type-aware rules for the TypeScript sources: a promise nobody awaits or catches loses its
    // error (an unhandled rejection in the renderer is a silent failure).
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // shared/ is pure: no Node, no DOM, no electron, nothing from the hosts.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: nodeOnly, message: 'shared/ is pure TypeScript: no Node modules.' },
            {
              group: ['**/electron/**', '**/renderer/**'],
              message: 'shared/ must not import host code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          selector: "UnaryExpression[operator='void'] > CallExpression[callee.name='request']",
          message:
            'A request fired without awaiting it loses its error: use useRequest() (renderer/useRequest.ts).',
        },
        {
          selector:
            "UnaryExpression[operator='void'] > CallExpression[callee.object.callee.name='request']",
          message:
            'A request fired without awaiting it loses its error: use useRequest() (renderer/useRequest.ts).',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: nodeOnly, message: 'The renderer runs in a sandboxed page: no Node modules.' },
            {
              group: ['**/electron/**'],
              message: 'The renderer talks to the core only through renderer/api.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'electron/core/**/*.ts',
      'electron/server/**/*.ts',
      'electron/cli/**/*.ts',
      'electron/workers/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': nodeSideImports({
        group: ['**/renderer/**', '**/electron/main/**'],
        message: 'Core and hosts never import the renderer or the Electron main process.',
      }),
    },
  },
  {
    // The core serves every host; it never reaches into one.
    files: ['electron/core/**/*.ts'],
    rules: {
      'no-restricted-imports': nodeSideImports({
        group: [
          '**/renderer/**',
          '**/electron/main/**',
          '**/server/**',
          '**/cli/**',
          '../main/**',
          '../../main/**',
        ],
        message: 'The core never imports a host (renderer, Electron main, server, CLI).',
      }),
    },
  },
  {
    // Electron's main process is a thin bridge: the core runs in a worker, so SQL never runs
    // on the thread that draws windows. Types from the core are fine; its runtime code is not.
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/**', '**/server/**', '**/cli/**', '**/renderer/**'],
              allowTypeImports: true,
              message:
                'electron/main runs no core code: talk to the core worker (core-host.ts); type imports only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['*', '!electron'], message: 'The preload imports nothing but electron.' },
          ],
        },
      ],
    },
  },
  {
    // A function longer than a reader holds in mind is split at its steps; one that reads best
    // whole says why in the comment that turns this off for it.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
);
