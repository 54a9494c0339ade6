import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers, lowest first (docs/architecture.md "Layers"). A unit is a folder of src/ or a file at its top. Every
// import points down: a unit imports from a lower layer, or from a unit listed BEFORE it in its own layer's row
// (so the units of one layer form a chain with no cycle), never from a later unit of its row or a higher layer.
// Static imports, re-exports (`export … from`) and lazy `import()` calls alike, by the local rule below; a lazy
// import names its module as a string literal, so that the rule can see where it points.
export const LAYERS = [
  [
    'errors',
    'version',
    'clean-text',
    'quote',
    'log',
    'link-target',
    'image-size',
    'tokens',
    'outcome',
    'config',
    'metrics',
  ],
  // extract/ first: pure, it imports neither the network edge nor the browser.
  ['extract', 'fetch', 'browser', 'ocr'],
  ['formats', 'crawl', 'shared-state'],
  ['workers'],
  ['engine'],
  // runs/ words its notes with output/'s sentences.
  ['output', 'runs'],
  ['tools'],
  ['server-logging', 'server-calls', 'server-tasks', 'server', 'server-modern-tasks', 'server-modern', 'transports'],
  ['index', 'cli'],
];

const SRC = resolve(import.meta.dirname, 'src');
const PLACE = new Map(LAYERS.flatMap((units, layer) => units.map((unit, position) => [unit, { layer, position }])));

/** The unit of an absolute path inside src/ ('engine', 'server-tasks'), or undefined outside src/. */
function unitOf(file) {
  const inSrc = relative(SRC, file);
  if (inSrc.startsWith('..') || isAbsolute(inSrc)) return undefined;
  const [first, ...rest] = inSrc.split(sep);
  return rest.length > 0 ? first : first.replace(/\.[jt]s$/, '');
}

const layersPlugin = {
  rules: {
    'imports-point-down': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          upward:
            '{{from}} is in layer {{fromLayer}}: it may not import {{to}} (layer {{toLayer}}); arrows point down (docs/architecture.md).',
          sideways:
            '{{from}} may not import {{to}}: in layer {{layer}} a unit imports only the units listed before it ({{before}}) (docs/architecture.md).',
          unknown: '{{unit}} is in no layer: add it to LAYERS in eslint.config.js and to docs/architecture.md.',
          computed: 'A lazy import names its module as a string literal, so that the layer rule can check it.',
          toolImport: 'A tool file never imports another tool file: move the shared part to a module both import.',
        },
      },
      create(context) {
        const file = context.filename;
        const from = unitOf(file);
        if (from === undefined) return {};
        const own = PLACE.get(from);
        const check = (node, source) => {
          if (!source || source.type !== 'Literal' || typeof source.value !== 'string') {
            if (node.type === 'ImportExpression') context.report({ node, messageId: 'computed' });
            return;
          }
          if (!source.value.startsWith('.')) return; // a package (undici has its own rule, below)
          const target = resolve(dirname(file), source.value);
          const to = unitOf(target);
          if (to === undefined) return;
          if (to === from) {
            const isTool = (path) => /^[\w-]+-tool\.[jt]s$/.test(basename(path)) && dirname(path) === dirname(file);
            if (from === 'tools' && isTool(file) && isTool(target)) context.report({ node, messageId: 'toolImport' });
            return;
          }
          const theirs = PLACE.get(to);
          if (!own || !theirs) return; // an unknown unit is reported once, on the file itself
          if (theirs.layer > own.layer) {
            const data = { from, to, fromLayer: own.layer, toLayer: theirs.layer };
            context.report({ node, messageId: 'upward', data });
          } else if (theirs.layer === own.layer && theirs.position > own.position) {
            const before = LAYERS[own.layer].slice(0, own.position).join(', ') || 'none';
            context.report({ node, messageId: 'sideways', data: { from, to, layer: own.layer, before } });
          }
        };
        return {
          Program(node) {
            if (!own) context.report({ node, messageId: 'unknown', data: { unit: from } });
          },
          ImportDeclaration: (node) => check(node, node.source),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source),
          ExportAllDeclaration: (node) => check(node, node.source),
          ImportExpression: (node) => check(node, node.source),
        };
      },
    },
  },
};

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
    // The layers (above), for the product's code; tests may reach into any layer and into test/.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports-point-down': 'error' },
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
