import { describe, expect, it } from 'vitest';
import {
  findElement,
  isElement,
  MAX_NESTING_DEPTH,
  parseHtml,
  parseMarkup,
  textOf,
  type HtmlDocument,
} from './parse.js';
import { cutNeverRendered } from './html-source.js';

/** The deepest element nesting under `root`, walked without recursion. */
function maxDepth(root: HtmlDocument): number {
  let deepest = 0;
  const stack: [HtmlDocument | import('./parse.js').HtmlElement, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.children) if (isElement(child)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const nested = (count: number, open: string, close: string, inner: string) =>
  `${open.repeat(count)}${inner}${close.repeat(count)}`;

describe('parseHtml depth cap', () => {
  it('nests 100,000 elements no deeper than the cap, keeping the innermost text', () => {
    const doc = parseHtml(`<html><body>${nested(100_000, '<div>', '</div>', 'the bottom')}<p>after</p></body></html>`);
    expect(maxDepth(doc)).toBeLessThanOrEqual(MAX_NESTING_DEPTH);
    expect(textOf(doc)).toBe('the bottomafter');
  });

  it('closes the dropped elements with their own end tags, so what follows lands where it belongs', () => {
    const deep = nested(MAX_NESTING_DEPTH + 100, '<section>', '</section>', 'deep');
    const doc = parseHtml(`<html><body><div id="outer">${deep}</div><p id="after">after</p></body></html>`);
    const after = findElement(doc, (el) => el.attribs.id === 'after')!;
    expect((after.parent as { name?: string }).name).toBe('body');
  });

  it('drops the start tag and attributes of an element past the cap but keeps its text and void elements', () => {
    const inner = '<a href="/x" class="deep">link words</a><img src="/i.png" alt="pic">';
    const doc = parseHtml(`<html><body>${nested(MAX_NESTING_DEPTH + 10, '<div>', '</div>', inner)}</body></html>`);
    expect(findElement(doc, (el) => el.name === 'a')).toBeUndefined();
    expect(findElement(doc, (el) => el.name === 'img')?.attribs.alt).toBe('pic');
    expect(textOf(doc)).toContain('link words');
  });

  it('leaves ordinary pages exactly as htmlparser2 builds them', () => {
    const doc = parseHtml('<html><body><ul><li>a<li>b</ul><p>x<b>y</b></p></body></html>');
    expect(maxDepth(doc)).toBe(4);
    expect(textOf(doc)).toBe('abxy');
  });

  it('caps XML (feeds) the same way', () => {
    const root = parseMarkup(`<rss>${nested(100_000, '<b>', '</b>', 'x')}</rss>`, { xmlMode: true });
    expect(maxDepth(root as unknown as HtmlDocument)).toBeLessThanOrEqual(MAX_NESTING_DEPTH);
  });
});

/** The body's text: what extraction reads. */
function bodyText(html: string): string {
  const doc = parseHtml(html);
  return textOf(findElement(doc, (el) => el.name === 'body') ?? doc);
}

describe('parseHtml raw text ends where HTML says (HTML §13.2.5)', () => {
  it('ends a script at `</script` followed by whitespace, attributes or `/`', () => {
    for (const end of ['</script >', '</script\n>', '</script foo="x">', '</script/>', '</SCRIPT\t>']) {
      const text = bodyText(`<body><script>var a = "<p>";${end}<p>kept</p><script>var b;</script><p>end</p></body>`);
      expect(text, end).toBe('keptend');
    }
  });

  it('ends a style at `</style` followed by whitespace, and leaves <style-x>, <script-x>, <svg-x> as elements', () => {
    expect(bodyText('<body><style>p{}</style foo><p>kept</p><style>q{}</style></body>')).toBe('kept');
    const custom = '<body><p>a<script-x>b</script-x><style-x>c</style-x><svg-x>d</svg-x></p>';
    expect(bodyText(`${custom}<script></script><style></style><svg></svg></body>`)).toBe('abcd');
  });

  it('keeps a `</script>` inside `<!-- <script>` inside the script, as browsers do (double-escaped script data)', () => {
    const html = '<body><script><!-- document.write("<script>x()</script>"); // --></script><p>after</p></body>';
    expect(bodyText(html)).toBe('after');
  });

  it('runs an unterminated script to the end of the file, showing nothing', () => {
    expect(bodyText('<body><p>before</p><script>var a; <p>never</p>')).toBe('before');
  });

  it('reads <title> and <textarea> as text: a comment or script inside them does not start a cut', () => {
    const doc = parseHtml('<html><head><title>a <!-- b</title></head><body><p>kept</p><b>c</b></body></html>');
    expect(textOf(findElement(doc, (el) => el.name === 'title')!)).toBe('a <!-- b');
    expect(bodyText('<body><textarea><script>x</textarea><p>kept</p></body>')).toBe('<script>xkept');
  });

  it('ends <title> and <textarea> at an end tag with `/` or attributes, which htmlparser2 alone would run past', () => {
    const doc = parseHtml(
      '<html><head><title>T</title/></head><body><textarea>a</textarea x><p>kept</p></body></html>',
    );
    expect(textOf(findElement(doc, (el) => el.name === 'title')!)).toBe('T');
    expect(bodyText('<body><textarea>a</textarea x><p>kept</p></body>')).toBe('akept');
  });

  it('reads <iframe>, <noembed> and <noframes> content as text no browser shows, not as markup', () => {
    const doc = parseHtml('<body><div><iframe src="/f"></div><p>fallback</p></iframe><p id="p">kept</p></div></body>');
    expect(textOf(doc)).toBe('kept');
    expect(findElement(doc, (el) => el.name === 'iframe')?.attribs.src).toBe('/f');
    expect((findElement(doc, (el) => el.attribs.id === 'p')!.parent as { name?: string }).name).toBe('div');
    expect(bodyText('<body><noembed><p>a</p></noembed><noframes>b</noframes>c</body>')).toBe('c');
  });
});

describe('parseHtml comments (HTML §13.2.5.43–52)', () => {
  it('takes `<!-->` and `<!--->` as whole empty comments', () => {
    expect(bodyText('<body><p>one<!-->two</p><p>three<!--->four</p><!-- x --></body>')).toBe('onetwothreefour');
  });

  it('ends a comment at `--!>`', () => {
    expect(bodyText('<body><!-- hidden --!><p>kept</p><!-- later --></body>')).toBe('kept');
  });

  it('runs an unterminated comment to the end of the file', () => {
    expect(bodyText('<body><p>kept</p><!-- <p>never</p>')).toBe('kept');
  });

  it('ends bogus comments (`<!x`, `<?x`, `</` + non-letter) at the first `>`', () => {
    expect(bodyText('<body><p>a<!x <!-- y>b<?php echo 1 ?>c</ 1>d</p><!-- z --></body>')).toBe('abcd');
  });
});

describe('parseHtml inline SVG', () => {
  it('takes `<svg/>` as empty and cuts a nested <svg> whole', () => {
    expect(bodyText('<body><svg/><p>kept</p><svg><svg></svg><text>icon</text></svg><p>end</p></body>')).toBe('keptend');
  });

  it('closes an <svg> left open at an HTML tag that breaks out of foreign content (HTML §13.2.6.5)', () => {
    const doc = parseHtml('<body><div><svg><use href="#i"/></div><p id="p">kept</p><svg></svg></body>');
    const p = findElement(doc, (el) => el.attribs.id === 'p')!;
    expect((p.parent as { name?: string }).name).toBe('body');
    expect(bodyText('<body><svg><path/><p>kept</p></body>')).toBe('kept');
  });

  it('does not break out inside an HTML integration point (<foreignObject>, <title>)', () => {
    expect(
      bodyText('<body><svg><title><b>icon</b></title><foreignObject><p>x</p></foreignObject></svg>ok</body>'),
    ).toBe('ok');
  });
});

describe('parseHtml <head> and <body> (HTML §13.2.6.4.4–6, §13.2.6.4.19–22)', () => {
  const nameOf = (node: { parent: unknown }) => (node.parent as { name?: string }).name;

  it('ends an unclosed <head> at the first element a head may not hold, and puts the rest in a <body>', () => {
    const doc = parseHtml('<html><head><title>T</title><meta charset="utf-8"><p id="p">one</p><p>two</p></html>');
    const head = findElement(doc, (el) => el.name === 'head')!;
    expect(head.children.map((c) => (isElement(c) ? c.name : c.type))).toEqual(['title', 'meta']);
    expect(nameOf(findElement(doc, (el) => el.attribs.id === 'p')!)).toBe('body');
    expect(bodyText('<html><head><meta charset="utf-8">Bare text<p>two</p></html>')).toBe('Bare texttwo');
    // A tracking pixel ends the head in a browser; the <title> after it is still not body text.
    const pixel = parseHtml('<html><head><img src="/p.gif"><title>T</title></head><body><p>x</p></body></html>');
    expect(findElement(pixel, (el) => el.name === 'head')!.children.map((c) => (c as { name?: string }).name)).toEqual([
      'title',
    ]);
    expect(textOf(findElement(pixel, (el) => el.name === 'body')!)).toBe('x');
    expect(findElement(pixel, (el) => el.name === 'img')!.parent).toBe(findElement(pixel, (el) => el.name === 'body'));
  });

  it('moves content between </head> and <body>, and after </body> or </html>, into the body', () => {
    const html = '<html><head></head><div>first</div><body><p>main</p></body><p>late</p></html><p>last</p>';
    expect(bodyText(html)).toBe('firstmainlatelast');
  });

  it('leaves a page with only head content outside its body as parsed', () => {
    const doc = parseHtml('<html><head><title>T</title></head>\n<body><p>x</p></body>\n</html>\n');
    const html = findElement(doc, (el) => el.name === 'html')!;
    expect(html.children.filter(isElement).map((c) => c.name)).toEqual(['head', 'body']);
  });
});

describe('parseHtml <template>', () => {
  it('leaves template content out of the document, nested templates included', () => {
    const html = '<body><template><p>card <template>x</template> title</p></template><p>kept</p></body>';
    expect(bodyText(html)).toBe('kept');
  });

  it('keeps the content of a declarative shadow root, which the browser renders', () => {
    const html = '<body><my-card><template shadowrootmode="open"><p>shown</p></template></my-card><p>kept</p></body>';
    expect(bodyText(html)).toBe('shownkept');
  });
});

describe('parseHtml builds a light tree (issue 23: memory proportional to what is kept)', () => {
  const doc = parseHtml('<html><body><ul><li><a href="/a">A &amp; B</a></li><li>two</li></ul><b>c</b></body></html>');
  const ul = findElement(doc, (el) => el.name === 'ul')!;
  const [first, second] = ul.children.filter(isElement);

  it('gives each node only the fields extraction reads: no prev, next or source offsets', () => {
    expect(Object.keys(ul).sort()).toEqual(['attribs', 'children', 'name', 'parent', 'type']);
    const text = findElement(doc, (el) => el.name === 'a')!.children[0]!;
    expect(Object.keys(text).sort()).toEqual(['data', 'parent', 'type']);
    expect(text).toMatchObject({ type: 'text', data: 'A & B' }); // one text node for text and its references
    expect(Object.keys(doc).sort()).toEqual(['children', 'parent', 'type']);
  });

  it('shares one frozen attribute record among the elements that have none, and keeps the ones that do', () => {
    expect(first!.attribs).toBe(second!.attribs);
    expect(Object.isFrozen(first!.attribs)).toBe(true);
    expect(findElement(doc, (el) => el.name === 'a')!.attribs).toEqual({ href: '/a' });
  });

  it('links every node to its parent, in document order', () => {
    expect(ul.children.map((child) => child.parent)).toEqual([ul, ul]);
    expect(first!.children[0]!.parent).toBe(first);
    expect(textOf(doc)).toBe('A & Btwoc');
    const body = findElement(doc, (el) => el.name === 'body')!;
    expect(body.children.map((child) => (isElement(child) ? child.name : child.type))).toEqual(['ul', 'b']);
  });
});

describe('the pre-pass hands the parser runs of the page, never a copy of it (issue 24 item 5)', () => {
  /** A tree as plain data: names, attributes and text, in order. */
  const shape = (node: HtmlDocument | import('./parse.js').HtmlNode): unknown =>
    node.type === 'text'
      ? node.data
      : isElement(node) || node.type === 'root'
        ? [isElement(node) ? [node.name, { ...node.attribs }] : 'root', ...node.children.map(shape)]
        : node.type;

  it('returns the runs that stay as slices of the page, with the end tags it puts back, not one joined string', () => {
    const page = '<p>a</p><script>x()</script><p>b &amp; c</p><iframe>fallback</iframe>';
    expect(cutNeverRendered(page)).toEqual(['<p>a</p>', '<p>b &amp; c</p><iframe>', '</iframe>']);
    const untouched = '<title>t</title><p>nothing to cut</p>';
    expect(cutNeverRendered(untouched)).toEqual([untouched]);
  });

  it('parses a page cut into two runs anywhere (in a tag name, an attribute, an entity, text) as the page whole', () => {
    const page = `<html><head><title>T</title></head><body><div class="a b" data-x='1'>x &amp; y<br/>z</div></body></html>`;
    const whole = shape(parseHtml(page));
    for (let at = 1; at < page.length; at++) {
      expect(shape(parseHtml('', { source: [page.slice(0, at), page.slice(at)] })), `cut at ${at}`).toEqual(whole);
    }
  });

  it('drops the elements past the depth cap by their names when a name spans two runs', () => {
    const page = `<html><body>${nested(MAX_NESTING_DEPTH + 3, '<section id=s>', '</section>', 'deep')}<p>after</p>`;
    const whole = shape(parseHtml(page));
    const capped = page.indexOf('<section', 14 * (MAX_NESTING_DEPTH - 2));
    const closing = page.indexOf('</section>');
    for (const at of [capped + 3, capped + 5, capped + 20, capped + 34, closing + 4, closing + 14, closing + 25]) {
      expect(shape(parseHtml('', { source: [page.slice(0, at), page.slice(at)] })), `cut at ${at}`).toEqual(whole);
    }
  });
});
