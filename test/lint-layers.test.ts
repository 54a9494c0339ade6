// The layer rule of eslint.config.js (docs/architecture.md "Layers") on code written for the test: what it refuses
// and what it lets through, static imports, re-exports and lazy import() calls alike.
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;
const eslint = new ESLint({ cwd: ROOT });

/** The layer rule's messages for `code` as the file `filePath` of the repository. */
async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'layers/imports-point-down')
    .map((message) => message.message);
}

describe('the layer rule', () => {
  it.each([
    ['a static import', "import { crawlTool } from '../tools/crawl-tool.js';\nvoid crawlTool;\n"],
    ['a type import', "import type { ToolOutput } from '../tools/types.js';\nexport type T = ToolOutput;\n"],
    ['a re-export', "export { crawlTool } from '../tools/crawl-tool.js';\n"],
    ['a lazy import()', "export const load = () => import('../tools/crawl-tool.js');\n"],
  ])('refuses %s from a lower layer to a higher one (engine → tools)', async (_, code) => {
    expect(await layerMessages('src/engine/example.ts', code)).toEqual([
      expect.stringContaining('engine is in layer 4: it may not import tools (layer 6)'),
    ]);
  });

  it('refuses an upward lazy import() from a file at the top of src/ (errors → server)', async () => {
    const code = "export const load = () => import('./server.js');\n";
    expect(await layerMessages('src/errors.ts', code)).toEqual([expect.stringContaining('arrows point down')]);
  });

  it('within a layer, lets a unit import the units listed before it, never the ones after', async () => {
    // Layer 1 is extract, fetch, browser: the browser uses the fetcher's address checks; extract stays pure.
    expect(await layerMessages('src/browser/example.ts', "export * from '../fetch/check-url.js';\n")).toEqual([]);
    expect(await layerMessages('src/fetch/example.ts', "export * from '../browser/render-slots.js';\n")).toEqual([
      expect.stringContaining('in layer 1 a unit imports only the units listed before it (extract)'),
    ]);
    expect(
      await layerMessages('src/extract/example.ts', "export const load = () => import('../fetch/decode.js');\n"),
    ).toEqual([expect.stringContaining('extract may not import fetch')]);
  });

  it('lets imports point down, and within a unit', async () => {
    const code = "export * from '../engine/engine.js';\nexport * from './types.js';\nexport * from '../errors.js';\n";
    expect(await layerMessages('src/tools/example.ts', code)).toEqual([]);
  });

  it('refuses a lazy import() it cannot read, and a tool file importing another', async () => {
    expect(await layerMessages('src/engine/example.ts', 'export const load = (m: string) => import(m);\n')).toEqual([
      expect.stringContaining('string literal'),
    ]);
    const sibling = "export const load = () => import('./map-tool.js');\n";
    expect(await layerMessages('src/tools/crawl-tool.ts', sibling)).toEqual([
      expect.stringContaining('never imports another tool file'),
    ]);
  });

  it('knows every unit of src/: one in no layer is refused', async () => {
    expect(await layerMessages('src/newthing/example.ts', 'export const x = 1;\n')).toEqual([
      expect.stringContaining('newthing is in no layer'),
    ]);
    const unplaced: string[] = [];
    for (const entry of readdirSync(`${ROOT}src`, { withFileTypes: true })) {
      if (!entry.isDirectory() && (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts'))) continue;
      const path = entry.isDirectory() ? `src/${entry.name}/example.ts` : `src/${entry.name}`;
      if ((await layerMessages(path, 'export {};\n')).length > 0) unplaced.push(entry.name);
    }
    expect(unplaced).toEqual([]);
  });
});
