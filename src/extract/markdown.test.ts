import { parseHtml } from './parse.js';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

const BASE_URL = 'https://site.example/dir/page.html';

function render(html: string): string {
  return renderMarkdown(parseHtml(`<!doctype html><html><body>${html}</body></html>`), { baseUrl: BASE_URL });
}

describe('renderMarkdown', () => {
  it.each([
    ['ATX headings', '<h1>One</h1><h3>Three <em>x</em></h3>', '# One\n\n### Three *x*'],
    ['paragraphs collapse whitespace', '<p>a\n   b\t c</p>\n\n<p> d </p>', 'a b c\n\nd'],
    ['text beside blocks becomes a paragraph', 'loose <b>text</b><p>para</p>tail', 'loose **text**\n\npara\n\ntail'],
    ['line breaks', '<p>one<br>two<br/> three</p>', 'one\ntwo\nthree'],
    ['emphasis keeps spaces outside the delimiters', '<p>a<strong> bold </strong>b <i>it</i></p>', 'a **bold** b *it*'],
    ['empty emphasis renders nothing', '<p>a<b> </b>b</p>', 'a b'],
    ['strikethrough', '<p><del>old</del> new</p>', '~~old~~ new'],
    [
      'text in composed form (NFC)',
      '<p>Jane\u0301 i-Size, \u09af\u09bc, \u09df</p>',
      'Jan\u00e9 i-Size, \u09af\u09bc, \u09af\u09bc',
    ],
    ['inline code with a backtick inside', '<p>use <code>a`b</code></p>', 'use ``a`b``'],
    ['unordered list', '<ul><li>a</li><li>b</li></ul>', '- a\n- b'],
    ['ordered list honours start', '<ol start="3"><li>c</li><li>d</li></ol>', '3. c\n4. d'],
    [
      'nested lists indent under their item',
      '<ul><li>a<ol><li>one</li><li>two<ul><li>deep</li></ul></li></ol></li><li>b</li></ul>',
      '- a\n  1. one\n  2. two\n     - deep\n- b',
    ],
    ['loose list item with two paragraphs', '<ol><li><p>x</p><p>y</p></li></ol>', '1. x\n\n   y'],
    [
      'list placed directly in a list nests under the previous item',
      '<ul><li>a</li><ul><li>b</li></ul></ul>',
      '- a\n  - b',
    ],
    [
      'fenced code with language from code class',
      '<pre><code class="language-js">let a = 1;\n</code></pre>',
      '```js\nlet a = 1;\n```',
    ],
    [
      'fenced code with language from pre class',
      '<pre class="highlight-rust">fn main() {}</pre>',
      '```rust\nfn main() {}\n```',
    ],
    ['lang- prefix', '<pre><code class="lang-go">x</code></pre>', '```go\nx\n```'],
    ['code keeps indentation and escapes nothing', '<pre>  a *b*\n    c</pre>', '```\n  a *b*\n    c\n```'],
    ['code containing a fence gets a longer fence', '<pre>```\nx\n```</pre>', '````\n```\nx\n```\n````'],
    ['blockquote', '<blockquote><p>q1</p><p>q2</p></blockquote>', '> q1\n>\n> q2'],
    [
      'pipe table with header and escaped pipe',
      '<table><tr><th>A</th><th>B</th></tr><tr><td>1|2</td><td>x</td></tr></table>',
      '| A | B |\n| --- | --- |\n| 1\\|2 | x |',
    ],
    [
      'ragged table rows are padded',
      '<table><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>',
      '| a | b |\n| --- | --- |\n| c |  |',
    ],
    [
      'one-column layout table renders its cells as blocks',
      '<table><tr><td><p>x</p></td></tr><tr><td>y</td></tr></table>',
      'x\n\ny',
    ],
    [
      'relative link resolves against the base URL',
      '<p><a href="../x?q=1">go</a></p>',
      '[go](https://site.example/x?q=1)',
    ],
    ['javascript: link keeps its text only', '<p><a href="javascript:alert(1)">click</a></p>', 'click'],
    ['a script link with a tab in its scheme keeps its text only', '<p><a href="java&#9;script:x()">t</a></p>', 't'],
    [
      'data:, vbscript:, file: and custom-scheme links keep their text',
      '<p><a href="data:text/html,x">a</a> <a href="vbscript:x">b</a> <a href="file:///etc/passwd">c</a> <a href="intent://x#Intent;end">d</a></p>',
      'a b c d',
    ],
    [
      'mailto: links stay links',
      '<p><a href="mailto:desk@site.example">desk</a></p>',
      '[desk](mailto:desk@site.example)',
    ],
    ['an image with a script source is its alt text', '<p><img src="javascript:x()" alt="pic"></p>', 'pic'],
    [
      'a link inside a link is its words',
      '<p><a href="/a">outer <a href="/b">inner</a> end</a></p>',
      '[outer inner end](https://site.example/a)',
    ],
    ['bold inside bold is wrapped once', '<p><b>a <b>b <strong>c</strong></b></b></p>', '**a b c**'],
    [
      'invisible and control characters go from text, alt text and code',
      '<p>a\u200Bb\u202Ec\u0007d <img src="/i.png" alt="x\u2066y"> <code>e\u00ADf</code></p>',
      'abcd ![xy](https://site.example/i.png) `ef`',
    ],
    ['in-page anchor keeps its text only', '<p><a href="#top">top</a></p>', 'top'],
    ['link without text is dropped', '<p>a<a href="/x"> </a>b</p>', 'a b'],
    [
      'image resolves to an absolute URL',
      '<p><img src="/i.png" alt="An image"></p>',
      '![An image](https://site.example/i.png)',
    ],
    ['data: image becomes its alt text', '<p><img src="data:image/png;base64,AAAA" alt="chart"></p>', 'chart'],
    [
      'lazy image uses data-src',
      '<p><img src="data:image/gif;base64,R0" data-src="lazy.jpg" alt="l"></p>',
      '![l](https://site.example/dir/lazy.jpg)',
    ],
    [
      'srcset when there is no src',
      '<p><img srcset="a.png 1x, b.png 2x" alt=""></p>',
      '![](https://site.example/dir/a.png)',
    ],
    [
      'URL with parentheses and spaces is encoded',
      '<p><a href="/a (b)">x</a></p>',
      '[x](https://site.example/a%20%28b%29)',
    ],
    [
      'Markdown specials in text are escaped',
      '<p>2 * 3 and [x] and `y` and a_b and _c_</p>',
      '2 \\* 3 and \\[x\\] and \\`y\\` and a_b and \\_c\\_',
    ],
    [
      'heading-like text at line start is escaped',
      '<p># not a heading</p><p>1. not a list</p>',
      '\\# not a heading\n\n1\\. not a list',
    ],
    ['HTML-like text is escaped', '<p>a &lt;b&gt; tag</p>', 'a \\<b> tag'],
    ['zero-width characters are removed, entities too', '<p>in\u200Bvis&#8203;ible&#xFEFF;</p>', 'invisible'],
    ['soft hyphens are removed', '<p>Mag\u00ADda&shy;le&#173;ner</p>', 'Magdalener'],
    [
      'scripts, styles and forms render nothing',
      '<p>a</p><script>x()</script><style>p{}</style><form><input value="v"><button>Go</button></form>',
      'a',
    ],
    ['horizontal rule', '<p>a</p><hr><p>b</p>', 'a\n\n---\n\nb'],
    ['empty input renders the empty string', '', ''],
  ])('%s', (_name, html, markdown) => {
    expect(render(html)).toBe(markdown);
  });
});
