import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers, lowest first (docs/architecture.md): a module imports from its own layer or a lower one, never a
// higher one, so every arrow points down. A unit is a folder of src/ or a file at its top.
const LAYERS = [
  ['errors', 'version', 'clean-text', 'log', 'link-target', 'tokens', 'quote', 'config', 'outcome', 'metrics'],
  ['fetch', 'extract', 'browser'],
  ['formats', 'crawl', 'shared-state'],
  ['workers'],
  ['engine'],
  ['output'],
  ['tools'],
  ['server', 'server-tasks', 'server-logging', 'transports'],
  ['cli', 'index'],
];
const FOLDERS = new Set([
  'browser',
  'fetch',
  'extract',
  'formats',
  'crawl',
  'shared-state',
  'workers',
  'engine',
  'output',
  'tools',
  'transports',
  'cli',
]);

function layerRules() {
  return LAYERS.flatMap((units, level) => {
    const above = LAYERS.slice(level + 1).flat();
    if (above.length === 0) return [];
    const names = above.map((unit) => (FOLDERS.has(unit) ? `${unit}/` : `${unit}\\.js$`)).join('|');
    return units.flatMap((unit) => {
      const layer = {
        // A specifier that names a higher unit: from a folder '../tools/x.js' or '../../engine.js', from a file at
        // the top of src/ './tools/x.js'.
        regex: FOLDERS.has(unit) ? `^(?:\\.\\./)+(?:${names})` : `^\\./(?:${names})`,
        message: `${unit} is in layer ${level}: it may import only from its own layer or lower ones (docs/architecture.md).`,
      };
      const rule = (patterns) => ({
        'no-restricted-imports': [
          'error',
          {
            paths: unit === 'fetch' ? [] : [{ name: 'undici', message: 'Only src/fetch/ talks to the network.' }],
            patterns,
          },
        ],
      });
      const files = FOLDERS.has(unit) ? [`src/${unit}/**/*.ts`] : [`src/${unit}.ts`];
      if (unit !== 'tools') return [{ files, ignores: ['src/**/*.test.ts'], rules: rule([layer]) }];
      // A tool file never imports another: what two tools share lives in load-document.ts or src/output/.
      const sibling = {
        regex: '^\\./[\\w-]+-tool\\.js$',
        message: 'A tool file never imports another tool file: move the shared part to a module both import.',
      };
      return [
        { files, ignores: ['src/**/*.test.ts', 'src/tools/*-tool.ts'], rules: rule([layer]) },
        { files: ['src/tools/*-tool.ts'], ignores: ['src/**/*.test.ts'], rules: rule([layer, sibling]) },
      ];
    });
  });
}

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
  // After the rule above, which it extends (the same rule key: the later object wins for the files it matches).
  ...layerRules(),
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
