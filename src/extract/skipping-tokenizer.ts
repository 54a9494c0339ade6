// htmlparser2's tokenizer, skipping what it would read a character at a time for nothing. With entities decoded (as
// we parse), it steps through text, attribute values and names one character per turn of its loop, each turn a
// dispatch on its state, although only a few characters can end or change the token: `<` and `&` in text, the quote
// and `&` in a quoted value, `=`, `/`, `>` and whitespace in a name. Here a native scan finds the next of those and the
// loop resumes there, in the same state, so the tokens and their offsets are the ones htmlparser2 makes (the news
// pages' markup is three quarters start tags, most of it attribute values: docs/benchmarks.md, "Speed, session 38").
// The overridden states are private in htmlparser2's types (10.x); parse.test.ts and the eval's same-output check
// fail loudly if they ever change.
import { Tokenizer } from 'htmlparser2';

/** The members of htmlparser2's Tokenizer read or overridden here. */
interface TokenizerStates {
  buffer: string;
  index: number;
  offset: number;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
  stateInAttributeName(c: number): void;
  stateInTagName(c: number): void;
}

const Base = Tokenizer as unknown as new (...args: ConstructorParameters<typeof Tokenizer>) => TokenizerStates;

// What ends or changes a token in each state (HTML §13.2.5; htmlparser2 reads \t \n \f \r and space as whitespace).
const TEXT_STOP = /[<&]/g;
const DOUBLE_QUOTED_STOP = /["&]/g;
const SINGLE_QUOTED_STOP = /['&]/g;
const NAME_STOP = /[=\t\n\f\r />]/g;
const TAG_NAME_STOP = /[\t\n\f\r />]/g;

const LT = 60;
const AMP = 38;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const EQUALS = 61;

/** Whether `c` ends a tag or attribute name: whitespace, `/` or `>` (htmlparser2's isEndOfTagSection). */
function endsName(c: number): boolean {
  return c === 32 || c === 47 || c === 62 || c === 10 || c === 9 || c === 12 || c === 13;
}

class SkippingTokenizer extends Base {
  /** Moves to just before the next character `stop` finds (the loop steps onto it), or to the buffer's end. */
  private skipTo(stop: RegExp): void {
    stop.lastIndex = this.index - this.offset + 1;
    const at = stop.test(this.buffer) ? stop.lastIndex - 1 : this.buffer.length;
    this.index = at + this.offset - 1;
  }

  override stateText(c: number): void {
    if (c === LT || c === AMP) super.stateText(c);
    else this.skipTo(TEXT_STOP);
  }

  override stateInAttributeValueDoubleQuotes(c: number): void {
    if (c === DOUBLE_QUOTE || c === AMP) super.stateInAttributeValueDoubleQuotes(c);
    else this.skipTo(DOUBLE_QUOTED_STOP);
  }

  override stateInAttributeValueSingleQuotes(c: number): void {
    if (c === SINGLE_QUOTE || c === AMP) super.stateInAttributeValueSingleQuotes(c);
    else this.skipTo(SINGLE_QUOTED_STOP);
  }

  override stateInAttributeName(c: number): void {
    if (c === EQUALS || endsName(c)) super.stateInAttributeName(c);
    else this.skipTo(NAME_STOP);
  }

  override stateInTagName(c: number): void {
    if (endsName(c)) super.stateInTagName(c);
    else this.skipTo(TAG_NAME_STOP);
  }
}

/** For htmlparser2's `Parser` option `Tokenizer`. */
export const SKIPPING_TOKENIZER = SkippingTokenizer as unknown as typeof Tokenizer;
