import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench-out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      // stdout is the MCP channel on stdio: library code logs through src/log.ts to stderr.
      'no-console': 'error',
    },
  },
  {
    // One HTTP client, one guard: only src/fetch/ may open connections.
    files: ['src/**/*.ts'],
    ignores: ['src/fetch/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the guarded fetcher in src/fetch/.' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'undici', message: 'Only src/fetch/ talks to the network.' }] },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
