// Module hooks for running @modelcontextprotocol/conformance on Node 20. Its bundle imports `globSync` from `fs`,
// which Node added in 22, so on Node 20 the import fails before anything runs. `conformance server` never calls
// it (only client-mode scenario discovery does), so the suite's own `fs` import is answered with node:fs plus a
// globSync that throws if ever called. On Node >= 22 the real globSync is passed through. Nothing else is touched.
const SHIM_URL = 'web-reader-shim:fs';

export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') ?? false;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: SHIM_URL, shortCircuit: true };
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url !== SHIM_URL) return nextLoad(url, context);
  const source = `import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export const globSync = fs.globSync ?? function globSync() {
  throw new Error('fs.globSync needs Node >= 22 (web-reader conformance shim)');
};`;
  return { format: 'module', source, shortCircuit: true };
}
