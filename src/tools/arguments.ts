// Argument schemas shared by several tools. Every message names the argument, so an agent can fix its call.
import { z } from 'zod';
import { compilePatterns } from '../crawl/url-scope.js';
import { MAX_URL_LENGTH, urlTooLongMessage } from '../fetch/url-argument.js';

// The schema carries the length limit too, so a client sees `maxLength` in the tool's input schema; the engine
// checks it again for callers that skip the schema (the library's engine, crawl links).
export const urlArgument = (description: string) =>
  z
    .string({ error: 'url is required and must be a string (an absolute http or https URL)' })
    .min(1, { error: 'url must not be empty' })
    .max(MAX_URL_LENGTH, { error: (issue) => urlTooLongMessage(String(issue.input), 'url') })
    .describe(description);

/** An integer of at least `min`, with no upper bound but JavaScript's exact integers. */
export const integerAtLeast = (name: string, min: number) => {
  const message = `${name} must be an integer ≥ ${min}`;
  return z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(Number.MAX_SAFE_INTEGER, { error: `${name} is too large` });
};

/** An integer in [min, max]; the message gives the range. */
export const integerBetween = (name: string, min: number, max: number) => {
  const message = `${name} must be an integer between ${min} and ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

export const nonNegativeInteger = (name: string, fallback: number, description: string) =>
  integerAtLeast(name, 0).default(fallback).describe(description);

export const booleanArgument = (name: string, fallback: boolean, description: string) =>
  z
    .boolean({ error: `${name} must be true or false` })
    .default(fallback)
    .describe(description);

export const startIndexArgument = nonNegativeInteger(
  'start_index',
  0,
  'Character offset to start from, to continue a truncated result (the truncation notice names it)',
);

/** A non-empty string of at most `max` characters; `what` says what it must be, in every message. */
export const boundedString = (name: string, what: string, max: number) =>
  z
    .string({ error: `${name} must be ${what}` })
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} is too long for ${what} (at most ${max} characters)` });

/**
 * crawl's and map's `patterns` / `exclude_patterns`: refused here, before anything is fetched, when an entry is not a
 * pattern, cannot run in linear time, or the list passes its caps (src/crawl/url-scope.ts).
 */
export const patternList = (name: string) =>
  stringList(name).superRefine((patterns, context) => {
    try {
      compilePatterns(patterns, name);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });

/** A list of non-empty strings (crawl's and map's allowed_domains, patterns). */
export const stringList = (name: string) =>
  z.array(
    z.string({ error: `${name} must be a list of strings` }).min(1, { error: `${name} entries must not be empty` }),
    {
      error: `${name} must be a list of strings`,
    },
  );
