// The one rule for tests that need an optional part of the machine (Chromium, tesseract, redis-server): with the part
// they run; without it they skip (the run's globalSetup prints one line saying why and how to run them); with CI set
// (as .ci/run runs) a missing part is a failure, never a silent skip.
import { describe, it } from 'vitest';

export interface OptionalPart {
  /** The program found by the product's own rule, or undefined. */
  readonly path: string | undefined;
  /** What the tests need, as the failing test names it: `Chromium`, `tesseract`, `redis-server`. */
  readonly program: string;
  /** Whose tests: `the rendering tests`. */
  readonly tests: string;
  /** How to get it: `install it with … to run them`. */
  readonly howToRun: string;
}

/** `describe` that runs `body` with the part's path, skips without it, and fails under CI without it. */
export function describeWithPart(name: string, part: OptionalPart, body: (path: string) => void): void {
  const { path } = part;
  if (path) return void describe(name, () => body(path));
  if (process.env.CI) {
    describe(name, () => {
      it(`needs ${part.program}, because CI is set`, () => {
        throw new Error(`No ${part.program} for ${part.tests}: ${part.howToRun}.`);
      });
    });
    return;
  }
  describe.skip(name, () => body(''));
}
