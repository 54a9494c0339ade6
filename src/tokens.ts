// Token counting with a real BPE tokenizer (o200k_base, the encoding of current OpenAI models; Claude's own
// tokenizer is not public, and o200k is a close, slightly generous stand-in for budgets). Used by the output cap
// and the crawl budget so both count the same way.
import { countTokens as countO200k, decode, encode, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';

// Web pages quote special tokens (`<|endoftext|>` on any page about language models). The tokenizer's default
// refuses such text with an exception; for counting and cutting a page they are ordinary characters.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return countO200k(text, AS_PLAIN_TEXT);
}

/** Length in characters of the longest prefix of `text` that fits in `maxTokens`; `text.length` when it all fits. */
export function prefixLengthWithinTokens(text: string, maxTokens: number): number {
  if (isWithinTokenLimit(text, maxTokens, AS_PLAIN_TEXT) !== false) return text.length;
  const prefix = decode(encode(text, AS_PLAIN_TEXT).slice(0, maxTokens));
  // A token can end inside a multi-byte character, which decodes to U+FFFD; drop that partial character.
  let length = prefix.length;
  while (length > 0 && prefix.charCodeAt(length - 1) === 0xfffd) length--;
  return Math.min(length, text.length);
}
