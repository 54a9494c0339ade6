// Vitest's globalSetup (vitest.config.ts). Tests that reach the worker pool, the CLI or stdio run the built dist/
// (the worker is loaded from its file, the CLI is another process), so `vitest run` after an edit without
// `npm run build` would test old code. This builds once before the suite when a source is newer than the last
// build; an up-to-date dist/ (as `npm test` leaves it, building first) costs one walk of src/, a few milliseconds.
// Not seen: a source file deleted since the build (its old output stays in dist/ until a build cleans nothing).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// tsc rewrites every output on each build, so one output's time is the build's time.
const BUILT = 'dist/cli/main.js';
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json'];

function mtimeMs(path: string): number {
  return statSync(join(ROOT, path), { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
}

/** The newest mtime of the sources tsconfig.build.json compiles (src/, without its tests). */
function newestSourceMs(): number {
  let newest = -Infinity;
  for (const entry of readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export default function buildIfStale(): void {
  const built = mtimeMs(BUILT);
  if (Math.max(newestSourceMs(), ...BUILD_INPUTS.map(mtimeMs)) <= built) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
