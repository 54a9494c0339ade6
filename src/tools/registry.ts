// Which tools exist, the presets of SPEC "Tools", and the choice a server makes with --tools / WEB_READER_TOOLS.
import type { Config } from '../config.js';
import { InvalidArgumentError } from '../errors.js';
import { noToolsSelected, unknownToolName } from '../output/notices.js';
import { crawlTool } from './crawl-tool.js';
import { extractLinksTool } from './extract-links-tool.js';
import { fetchTool } from './fetch-tool.js';
import { linksTool } from './links-tool.js';
import { mapTool } from './map-tool.js';
import { readManyTool } from './read-many-tool.js';
import { readUrlTool } from './read-url-tool.js';
import { screenshotTool } from './screenshot-tool.js';
import { searchTool } from './search-tool.js';
import type { ToolDefinition } from './types.js';
import { webScraperTool } from './web-scraper-tool.js';
import { webTool } from './web-tool.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool has its own argument shape
export type AnyTool = ToolDefinition<any>;

/** Every tool this build has, in the order they are listed to clients (crawl goes between read_url and extract_links). */
export const ALL_TOOLS: readonly AnyTool[] = [
  fetchTool,
  linksTool,
  webTool,
  readUrlTool,
  crawlTool,
  extractLinksTool,
  webScraperTool,
  mapTool,
  readManyTool,
  searchTool,
  screenshotTool,
];

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  // search is listed only when a provider is configured (ToolDefinition.offered).
  default: ['fetch', 'links', 'crawl', 'search'],
  'url-reader': ['read_url', 'crawl', 'extract_links'],
  // Every tool of the build, in its listing order: one list (ALL_TOOLS), not a copy of it.
  all: ALL_TOOLS.map((tool) => tool.name),
  explore: ['fetch', 'links', 'map', 'crawl'],
  // Search, read the results that look right, read more of one: search is left out without a provider.
  research: ['search', 'read_many', 'fetch', 'links'],
};

/** Whether a server with `config` offers `tool` (ToolDefinition.offered: `search` needs a provider). */
export function isOffered(tool: AnyTool, config: Config): boolean {
  return tool.offered?.(config) ?? true;
}

/** The tools of `tools` a server with `config` offers, in their order. */
export function offeredTools(tools: readonly AnyTool[], config: Config): AnyTool[] {
  return tools.filter((tool) => isOffered(tool, config));
}

export function findTool(name: string): AnyTool | undefined {
  return ALL_TOOLS.find((tool) => tool.name === name);
}

/**
 * Resolves a comma list of tool names and presets to tools, in list order without repeats. An unknown name is an
 * error listing the valid ones; a preset member this build does not have yet is left out, and with `config`, a tool
 * it does not offer.
 */
export function selectTools(spec: string, variable = 'WEB_READER_TOOLS', config?: Config): AnyTool[] {
  const chosen: AnyTool[] = [];
  const add = (tool: AnyTool | undefined) => {
    if (tool && !chosen.includes(tool)) chosen.push(tool);
  };
  for (const raw of spec.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    const preset = PRESETS[name];
    if (preset) {
      preset.forEach((member) => add(findTool(member)));
      continue;
    }
    const tool = findTool(name);
    if (!tool) {
      const valid = [...ALL_TOOLS.map((t) => t.name), ...Object.keys(PRESETS)];
      throw new InvalidArgumentError(variable, unknownToolName(name, variable, valid));
    }
    add(tool);
  }
  // A preset's member this configuration cannot offer is left out; so is one named alone (`search` without a
  // provider is not listed, and `web-reader search` says which variable to set).
  if (config) chosen.splice(0, chosen.length, ...offeredTools(chosen, config));
  if (chosen.length === 0) throw new InvalidArgumentError(variable, noToolsSelected(variable));
  return chosen;
}
