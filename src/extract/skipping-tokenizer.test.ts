import { Parser, type Handler } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { randomMarkup } from '../../test/random-markup.js';
import { SKIPPING_TOKENIZER } from './skipping-tokenizer.js';

/** Every event htmlparser2's parser hands a handler (but the parser itself), with its arguments and offsets, in order. */
function events(pieces: readonly string[], options: { skipping: boolean; xmlMode?: boolean }): string[] {
  const seen: string[] = [];
  const handler = new Proxy({} as Partial<Handler>, {
    get: (_target, name) =>
      typeof name === 'string' && name.startsWith('on') && name !== 'onparserinit'
        ? (...args: unknown[]) => seen.push(`${name} ${JSON.stringify(args)} @${parser.startIndex}-${parser.endIndex}`)
        : undefined,
  });
  const parser: Parser = new Parser(handler, {
    xmlMode: options.xmlMode ?? false,
    ...(options.skipping ? { Tokenizer: SKIPPING_TOKENIZER } : {}),
  });
  for (const piece of pieces) parser.write(piece);
  parser.end();
  return seen;
}

// Markup where each skipped state meets what ends it: entities (named, legacy without `;`, numeric, unknown) in text
// and in each kind of attribute value, quotes of the other kind inside values, names ended by each of `=`, `/`, `>`
// and the five whitespace characters, upper case, RCDATA and raw text, comments, CDATA, a document cut short.
const MARKUP = [
  '<!DOCTYPE html><html LANG=en><head><title>A &amp; B &lt;c&gt; &copy 2024</title></head>',
  `<body class="a b&amp;c" data-x='it"s &quot;q&quot;' id=plain&amp;x hidden><p>one &amp two&#169;&#xA9;&notit; three</p>`,
  '<div\tclass="t"\ndata-a=\'1\'\fdata-b="2"\rdata-c=3 data-d/><img src="a.png?x=1&y=2&amp;z=3" alt="">',
  '<a href=/x?a=1&b=2>link</a><br/><INPUT VALUE="&gt;">text & more &amp;&amp; end<textarea>x &lt; <b></textarea>',
  '<script>if (a < b && c) { x = "</p>"; }</script><style>.a > b { content: "&" }</style><!-- a -- b --><x-y a-b=c>',
  '<svg><![CDATA[ x < y ]]><path d="M0 0"/></svg><p>tail &am',
  // The fast paths' edges: a name begun by `=` or a quote, an empty unquoted value, a value right after a quote, `/`
  // inside a tag and before `>` with spaces, an end tag with spaces or attributes, `</>` and `</ p>`, names of raw-text
  // elements and names that only begin like them, upper case, a tag left open at the end.
  '<a =b \'c\'=d b=>x</a ><p a="1"b=\'2\'c=3/ d / >y</p foo="></p>"><br / ><br/ x></><img/ src=a.png>',
  '</ p>z<Span CLASS=A>s</SPAN><scripty>q</scripty><styles>r</styles><titles>t</titles><tbody><x-mp>u</x-mp>',
  '<xmp><b>raw</b></xmp><TITLE>T &amp; t</TITLE ><textarea a=1>v</textarea x><strong>w</strong><td a="&quot',
  '<p a=&amp;b c=x&y d="e&#x41;" e=\'f&lt\'>&#60;&#x3c;&lt&LT;&nbsp&amp</p><hr a b c><!x><?y?><div a',
];

/** The pieces random markup (seeded) is put together from: pieces that meet each other in every order. */
const TOKEN_PARTS = [
  '<', '>', '/', '=', '"', "'", ' ', '\n', '&', 'amp;', '&lt;', '&#169;', '&x', 'a', 'div', 'p', 'span', 'br',
  'script', 'style', 'title', 'textarea', 'xmp', 'text', '<!--', '-->', '<!', '</', '/>', 'class', 'x=', 'B',
]; // prettier-ignore

describe('SkippingTokenizer', () => {
  it('makes the events and offsets htmlparser2 makes, whole and written in two pieces at every cut', () => {
    for (const markup of MARKUP) {
      expect(events([markup], { skipping: true })).toEqual(events([markup], { skipping: false }));
      for (let cut = 1; cut < markup.length; cut++) {
        const pieces = [markup.slice(0, cut), markup.slice(cut)];
        expect(events(pieces, { skipping: true }), `${markup} cut at ${cut}`).toEqual(
          events(pieces, { skipping: false }),
        );
      }
    }
  });

  it('makes the same events on random markup, whole and in three pieces', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const markup = randomMarkup(seed, 120, TOKEN_PARTS);
      expect(events([markup], { skipping: true }), markup).toEqual(events([markup], { skipping: false }));
      const a = seed % 40;
      const b = a + 1 + ((seed * 7) % 60);
      const pieces = [markup.slice(0, a), markup.slice(a, b), markup.slice(b)];
      expect(events(pieces, { skipping: true }), `${markup} cut at ${a}, ${b}`).toEqual(
        events(pieces, { skipping: false }),
      );
    }
  });

  it('makes the same events in XML mode (feeds)', () => {
    const feed = '<?xml version="1.0"?><rss><item><title>A &amp; B</title><link>https://x/?a=1&amp;b=2</link>';
    expect(events([feed], { skipping: true, xmlMode: true })).toEqual(
      events([feed], { skipping: false, xmlMode: true }),
    );
  });

  it('decodes what it skips to: entities in text and attribute values', () => {
    const text: string[] = [];
    const values: string[] = [];
    const parser = new Parser(
      {
        ontext: (data) => text.push(data),
        onattribute: (_name, value) => values.push(value),
      },
      { Tokenizer: SKIPPING_TOKENIZER },
    );
    parser.end('<p title="a &amp; b" data-x=\'&lt;\'>x &gt; y</p>');
    expect(values).toEqual(['a & b', '<']);
    expect(text.join('')).toBe('x > y');
  });
});
