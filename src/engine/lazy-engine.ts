// The engine, loaded on first use. Reading a page needs the fetcher (undici), the extraction workers, the page
// cache and the browser module; none of them is needed to answer an MCP client's `initialize` or `tools/list`, and
// importing them first made a client wait ~2× a bare SDK server's start-up (issue 15; npm run bench:start). Every
// Engine method is async, so the first call imports engine.ts and the rest wait on the same promise.
import type { Config } from '../config.js';
import type { Engine } from './engine.js';

export function createLazyEngine(config: Config): Engine {
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= import('./engine.js').then(({ createEngine }) => createEngine(config)));
  return {
    config,
    loadPage: async (...args) => (await engine()).loadPage(...args),
    renderAfter: async (...args) => (await engine()).renderAfter(...args),
    readPage: async (...args) => (await engine()).readPage(...args),
    extractArticle: async (...args) => (await engine()).extractArticle(...args),
    extractLinks: async (...args) => (await engine()).extractLinks(...args),
    scrapeHtml: async (...args) => (await engine()).scrapeHtml(...args),
    decodeText: async (...args) => (await engine()).decodeText(...args),
    extractFeedLinks: async (...args) => (await engine()).extractFeedLinks(...args),
    readLlmsTxt: async (...args) => (await engine()).readLlmsTxt(...args),
    // Never loaded, nothing to close.
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
}
