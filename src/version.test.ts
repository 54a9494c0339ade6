import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { REPOSITORY_URL, VERSION } from './version.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  repository: { url: string };
};

test('VERSION matches package.json', () => {
  expect(VERSION).toBe(pkg.version);
});

test("REPOSITORY_URL is package.json's repository", () => {
  expect(pkg.repository.url).toBe(`git+${REPOSITORY_URL}.git`);
});
