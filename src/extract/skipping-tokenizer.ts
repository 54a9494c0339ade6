// htmlparser2's tokenizer, skipping what it would read a character at a time for nothing. With entities decoded (as
// we parse), it steps through text, attribute values and names one character per turn of its loop, each turn a
// dispatch on its state, although only a few characters can end or change the token: `<` and `&` in text, the quote
// and `&` in a quoted value, `=`, `/`, `>` and whitespace in a name. Here a native scan finds the next of those and the
// loop resumes there, in the same state, so the tokens and their offsets are the ones htmlparser2 makes (the news
// pages' markup is three quarters start tags, most of it attribute values: docs/benchmarks.md, "Speed, session 38").
// Its loop, too, takes text runs, start tags with their attributes and end tags a token at a time (parse below): each
// state change had been a turn through htmlparser2's 26-way dispatch, whose optimized code V8 compiled and threw away
// several times while a worker warmed up.
// The overridden states are private in htmlparser2's types (10.x); parse.test.ts and the eval's same-output check
// fail loudly if they ever change.
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** The members of htmlparser2's Tokenizer read or overridden here. */
interface TokenizerStates {
  buffer: string;
  index: number;
  offset: number;
  state: number;
  sectionStart: number;
  sequenceIndex: number;
  isSpecial: boolean;
  running: boolean;
  readonly xmlMode: boolean;
  readonly decodeEntities: boolean;
  readonly cbs: TokenizerCallbacks;
  parse(): void;
  cleanup(): void;
  startEntity(): void;
  stateInEntity(): void;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
  stateInAttributeName(c: number): void;
  stateInTagName(c: number): void;
}

/** htmlparser2's tokenizer states (its `State`, not exported), those the fast paths enter or leave. */
const enum State {
  Text = 1,
  BeforeTagName = 2,
  InSelfClosingTag = 4,
  AfterClosingTagName = 7,
  BeforeAttributeName = 8,
  InAttributeName = 9,
  AfterAttributeName = 10,
  BeforeAttributeValue = 11,
  InAttributeValueDq = 12,
  InAttributeValueSq = 13,
  InAttributeValueNq = 14,
  InSpecialTag = 25,
  InEntity = 26,
}

/** htmlparser2's `QuoteType`. */
const enum Quote {
  NoValue = 0,
  Unquoted = 1,
  Single = 2,
  Double = 3,
}

const Base = Tokenizer as unknown as new (...args: ConstructorParameters<typeof Tokenizer>) => TokenizerStates;

// What ends or changes a token in each state (HTML §13.2.5; htmlparser2 reads \t \n \f \r and space as whitespace).
const TEXT_STOP = /[<&]/g;
const DOUBLE_QUOTED_STOP = /["&]/g;
const SINGLE_QUOTED_STOP = /['&]/g;
const NAME_STOP = /[=\t\n\f\r />]/g;
const TAG_NAME_STOP = /[\t\n\f\r />]/g;

// The fast paths' stops: the end of a start tag's name, of an end tag's name, of an unquoted attribute value.
const OPEN_NAME_END = TAG_NAME_STOP;
const CLOSE_NAME_END = /[\t\n\f\r >]/g;
const UNQUOTED_STOP = /[\t\n\f\r >&]/g;
// RAWTEXT and RCDATA elements: htmlparser2 reads their content in states of its own (InSpecialTag), left to it.
const SPECIAL_NAME = /(?:script|style|title|textarea|xmp)/iy;

// What a character that opens an attribute's value makes it (by code, ASCII): its quote, its stop, its state.
const VALUE_QUOTE = new Uint8Array(128).fill(Quote.Unquoted);
VALUE_QUOTE[34] = Quote.Double;
VALUE_QUOTE[39] = Quote.Single;
const VALUE_STOPS = [UNQUOTED_STOP, UNQUOTED_STOP, SINGLE_QUOTED_STOP, DOUBLE_QUOTED_STOP];
const VALUE_STATES: readonly number[] = [
  State.InAttributeValueNq,
  State.InAttributeValueNq,
  State.InAttributeValueSq,
  State.InAttributeValueDq,
];

const LT = 60;
const AMP = 38;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const EQUALS = 61;
const SLASH = 47;
const GT = 62;

// htmlparser2's state methods by State number (26 states, 10.x): the fast paths' fallback steps one character in
// whichever state they leave the tokenizer.
const STATE_METHODS = [
  '', 'stateText', 'stateBeforeTagName', 'stateInTagName', 'stateInSelfClosingTag', 'stateBeforeClosingTagName',
  'stateInClosingTagName', 'stateAfterClosingTagName', 'stateBeforeAttributeName', 'stateInAttributeName',
  'stateAfterAttributeName', 'stateBeforeAttributeValue', 'stateInAttributeValueDoubleQuotes',
  'stateInAttributeValueSingleQuotes', 'stateInAttributeValueNoQuotes', 'stateBeforeDeclaration', 'stateInDeclaration',
  'stateInProcessingInstruction', 'stateBeforeComment', 'stateCDATASequence', 'stateInSpecialComment',
  'stateInCommentLike', 'stateBeforeSpecialS', 'stateBeforeSpecialT', 'stateSpecialStartSequence', 'stateInSpecialTag',
  'stateInEntity',
] as const; // prettier-ignore

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
}

function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 97 && lower <= 122;
}

/** The first index from `at` that is not whitespace, or `text.length`. */
function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/**
 * Whether `text[from, to)` names an element htmlparser2 reads as raw text or RCDATA. The test runs on every name: a
 * quicker first-letter filter left it to the few special tags of a page's head, read before V8 keeps type feedback
 * for a function, and the optimized tag reader was thrown away at the next one.
 */
function isSpecialName(text: string, from: number, to: number): boolean {
  SPECIAL_NAME.lastIndex = from;
  const matched = SPECIAL_NAME.test(text);
  return SPECIAL_NAME.lastIndex === to && matched; // lastIndex is 0 after no match, and read either way
}

/** Whether `c` ends a tag or attribute name: whitespace, `/` or `>` (htmlparser2's isEndOfTagSection). */
function endsName(c: number): boolean {
  return c === 32 || c === 47 || c === 62 || c === 10 || c === 9 || c === 12 || c === 13;
}

class SkippingTokenizer extends Base {
  /**
   * htmlparser2's loop, with what most of a page is made of taken a token at a time: a run of text, a start tag's
   * name and each of its attributes, an end tag. Each fast path makes the callbacks htmlparser2's states make and
   * leaves the tokenizer in the state, index and section they would, so where it stops (an entity in a value, the end
   * of a piece, a rare construct) htmlparser2's own states go on, one character per step. Feeds (XML mode), and
   * text read without decoding entities, keep htmlparser2's loop. Pausing takes effect at the next token, not the next character (nothing here pauses).
   */
  override parse(): void {
    if (this.xmlMode || !this.decodeEntities) {
      super.parse();
      return;
    }
    const end = this.buffer.length + this.offset;
    while (this.index < end && this.running) {
      const state = this.state;
      if (state === State.Text) this.text(end);
      else if (state === State.BeforeTagName && this.tagStart()) continue;
      else if (state === State.BeforeAttributeName) this.attributes(end);
      else if (state === State.InEntity) {
        this.stateInEntity();
        this.index++;
      } else this.step(); // the one call for whatever the fast paths leave (see tagStart)
    }
    this.cleanup();
  }

  /** One character in the current state, as htmlparser2's loop takes it. */
  private step(): void {
    const method = STATE_METHODS[this.state]! as 'stateText';
    this[method](this.buffer.charCodeAt(this.index - this.offset));
    this.index++;
  }

  /** Text up to the next `<` (its text handed over, the tag begun) or `&` (an entity begun), or the piece's end. */
  private text(end: number): void {
    TEXT_STOP.lastIndex = this.index - this.offset;
    if (!TEXT_STOP.test(this.buffer)) {
      this.index = end;
      return;
    }
    const at = TEXT_STOP.lastIndex - 1 + this.offset;
    this.index = at;
    if (this.buffer.charCodeAt(at - this.offset) === LT) {
      if (at > this.sectionStart) this.cbs.ontext(this.sectionStart, at);
      this.state = State.BeforeTagName;
      this.sectionStart = at;
    } else this.startEntity();
    this.index = at + 1;
  }

  /**
   * After `<`: a start tag's name or a whole end tag, when the piece holds it and it is not raw text's. False when it
   * leaves the tag to htmlparser2's states: the caller's one call into them (`step`) runs from a page's first
   * characters, where a call made here only for rarer tags (a `<script>`) had no type feedback yet when V8 optimized
   * the reader, and threw the optimized reader away there.
   */
  private tagStart(): boolean {
    const { buffer, offset } = this;
    const from = this.index - offset;
    const c = buffer.charCodeAt(from);
    if (isAsciiAlpha(c)) {
      OPEN_NAME_END.lastIndex = from + 1;
      const nameEnd = OPEN_NAME_END.test(buffer) ? OPEN_NAME_END.lastIndex - 1 : -1;
      if (nameEnd >= 0 && !isSpecialName(buffer, from, nameEnd)) {
        this.cbs.onopentagname(from + offset, nameEnd + offset);
        this.sectionStart = -1;
        this.state = State.BeforeAttributeName;
        this.index = nameEnd + offset; // the character after the name is read again, there
        return true;
      }
    } else if (c === SLASH && isAsciiAlpha(buffer.charCodeAt(from + 1))) {
      CLOSE_NAME_END.lastIndex = from + 2;
      if (CLOSE_NAME_END.test(buffer)) {
        const nameEnd = CLOSE_NAME_END.lastIndex - 1;
        this.cbs.onclosetag(from + 1 + offset, nameEnd + offset);
        // Whatever follows the name up to `>` is ignored (`</p foo>`); with no `>` yet, the next piece may hold it.
        const gt = buffer.indexOf('>', nameEnd);
        if (gt < 0) {
          this.sectionStart = -1;
          this.state = State.AfterClosingTagName;
          this.index = buffer.length + offset;
          return true;
        }
        this.state = State.Text;
        this.sectionStart = this.index = gt + offset + 1;
        return true;
      }
    }
    return false;
  }

  /**
   * A start tag's attributes, one after another, and its end (`>` or `/>`). Stops with htmlparser2's state where a
   * value holds an entity or the piece ends.
   */
  private attributes(end: number): void {
    const { buffer, offset, cbs } = this;
    let p = this.index - offset;
    for (;;) {
      p = skipSpace(buffer, p);
      if (p >= buffer.length) return this.stop(State.BeforeAttributeName, end);
      let c = buffer.charCodeAt(p);
      if (c === GT) {
        cbs.onopentagend(p + offset);
        this.state = this.isSpecial ? State.InSpecialTag : State.Text;
        this.sequenceIndex = 0; // read in InSpecialTag only, and set by every other state that reads it
        this.sectionStart = this.index = p + offset + 1;
        return;
      }
      if (c === SLASH) {
        const next = skipSpace(buffer, p + 1);
        if (next >= buffer.length) return this.stop(State.InSelfClosingTag, end);
        if (buffer.charCodeAt(next) === GT) {
          cbs.onselfclosingtag(next + offset);
          this.state = State.Text;
          this.sectionStart = this.index = next + offset + 1;
          this.isSpecial = false;
          return;
        }
        p = next; // anything else starts over, before an attribute name
        continue;
      }
      // A name: this character (even `=` or a quote) and the rest up to `=`, whitespace, `/` or `>`.
      NAME_STOP.lastIndex = p + 1;
      if (!NAME_STOP.test(buffer)) {
        this.sectionStart = p + offset;
        return this.stop(State.InAttributeName, end);
      }
      const nameEnd = NAME_STOP.lastIndex - 1;
      cbs.onattribname(p + offset, nameEnd + offset);
      this.sectionStart = nameEnd + offset;
      p = skipSpace(buffer, nameEnd);
      if (p >= buffer.length) return this.stop(State.AfterAttributeName, end);
      c = buffer.charCodeAt(p);
      // One call of each callback whatever the value's kind, chosen by table: every branch and call site here is
      // met by the first page's first tags, so V8 has no path left unseen to throw its optimized code away for.
      let quote: number = Quote.NoValue;
      let endIndex = this.sectionStart;
      if (c === EQUALS) {
        p = skipSpace(buffer, p + 1);
        if (p >= buffer.length) return this.stop(State.BeforeAttributeValue, end);
        c = buffer.charCodeAt(p);
        quote = c < 128 ? VALUE_QUOTE[c]! : Quote.Unquoted;
        const closing = quote === Quote.Unquoted ? 0 : 1; // an unquoted value starts at this character
        const from = p + closing;
        const stop = VALUE_STOPS[quote]!;
        stop.lastIndex = from;
        const at = stop.test(buffer) ? stop.lastIndex - 1 : buffer.length;
        if (at === buffer.length || buffer.charCodeAt(at) === AMP) {
          // An entity (htmlparser2 decodes it) or the piece's end: its value states go on from here.
          this.state = VALUE_STATES[quote]!;
          this.sectionStart = from + offset;
          this.index = at + offset;
          return;
        }
        cbs.onattribdata(from + offset, at + offset);
        endIndex = at + offset + closing;
        p = at + closing; // after the quote; or whitespace or `>`, read again before the next name
      }
      // Without a value, what follows is the tag's end or the next name.
      this.sectionStart = -1;
      cbs.onattribend(quote, endIndex);
    }
  }

  private stop(state: State, end: number): void {
    this.state = state;
    this.index = end;
  }

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
