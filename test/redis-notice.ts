// Whether the Redis tests (issue 16: src/shared-state/, test/replicas.test.ts) have a redis-server, and the one line
// a run prints when they skip for want of one. Vitest's globalSetup (vitest.config.ts), so the line comes once per
// run; test/redis-server.ts applies the same finding file by file (and fails instead under CI, as .ci/run sets).
// No vitest import here: globalSetup runs outside tests.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** redis-server on PATH, as Debian's package installs it, or undefined. */
export const REDIS_SERVER_PATH: string | undefined = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '')
  .map((dir) => join(dir, 'redis-server'))
  .find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false; // not here: look in the next directory
    }
  });

export const HOW_TO_RUN_REDIS = 'install it with `apt-get install redis-server` to run them';

export default function setup(): void {
  if (!REDIS_SERVER_PATH && !process.env.CI) {
    process.stderr.write(
      `[web-reader tests] the Redis tests are skipped: no redis-server on PATH; ${HOW_TO_RUN_REDIS}.\n`,
    );
  }
}
