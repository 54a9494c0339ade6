import { describe, expect, it } from 'vitest';
import { randomMarkup } from '../../test/random-markup.js';
import { MAX_NESTING_DEPTH, parseMarkup } from './parse.js';
import { TreeParser } from './tree-parser.js';

/** A tree as plain data, whichever parser made it: element [name, type, attributes, children], text, comment. */
type Shape = string | [string, string, Record<string, string>, Shape[]];

interface AnyNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  data?: string;
  children?: AnyNode[];
}

function shape(node: AnyNode): Shape {
  if (node.type === 'text') return node.data!;
  if (node.type === 'comment') return `<!--${node.data}-->`;
  if (node.type === 'directive') return '<!directive>';
  return [node.name!, node.type, { ...node.attribs }, (node.children ?? []).map(shape)];
}

/** The tree TreeParser builds from `pieces`, read one after another. */
function ours(pieces: readonly string[]): Shape[] {
  const parser = new TreeParser();
  parser.parse(pieces);
  return parser.root.children.map((node) => shape(node as AnyNode));
}

/** The tree htmlparser2's Parser (with parse.ts's depth cap) and domhandler build from the same document. */
function theirs(pieces: readonly string[]): Shape[] {
  return parseMarkup(pieces.join('')).children.map((node) => shape(node as unknown as AnyNode));
}

// Markup made to meet each rule: implied end tags (p, li, dt/dd, tr/td/th, option, rt/rp, tbody, headings, body),
// void elements and their end tags, `</br>` and `</p>` with nothing open, misnested and unmatched end tags, `/>` in
// HTML, in <math> and at its integration points, duplicate attributes (the first wins), upper case, entities in text
// and values, raw text, comments, CDATA, doctype and processing instructions, a document ending inside a tag.
const MARKUP = [
  '<!DOCTYPE html><html><head><title>T &amp; t</title><meta charset=utf-8><link rel=x></head><body><p>a<p>b</div>c',
  '<ul><li>one<li>two<ol><li>in</ol></ul><dl><dt>t<dd>d<dt>t2</dl><table><tr><td>1<td>2<tr><th>h</table>',
  '<select><option>a<option>b<optgroup><option>c</select><ruby>x<rt>r<rp>p</ruby><h1>h<p>p<h2>h2</h2>',
  '<p>x</br>y</p></p><br/><img src=a><img src=b></img><hr/><input value=1><span/>z</span><b><i>bi</b>i?</i>',
  '<div ID=A Class="B" class=dup data-x=&amp;y>q</DIV><math><mi/>m<mtext><b/>t</mtext><mo/></math><p/>after',
  '<a href="/x?a=1&amp;b=2&c=3" title=\'it&apos;s\'>l</a><!-- c --><![CDATA[ d ]]><?pi x?><textarea><b></textarea>',
  '<body><p>one</body><p>after body</html>tail<div><span>unclosed<div>deep<table><tbody><tr><td>x<tfoot>',
  '<p>text &lt; &#169; &copy &notit; <xmp><i>raw</i></xmp><script>s</script><style>s</style><div a',
];

/** The pieces random markup (seeded) is put together from. */
const TREE_PARTS = [
  '<p>', '</p>', '<li>', '<ul>', '</ul>', '<td>', '<tr>', '<table>', '</table>', '<div>', '</div>', '<br>', '</br>',
  '<img src=x>', '<b>', '</b>', '<i>', '</i>', '<math>', '</math>', '<mi/>', '<mtext>', '</mtext>', '<x/>',
  '<option>', '<select>', 'text', ' ', '&amp;', '<!--c-->', '<a href=y>', '</a>', '<h1>', '</h2>', '<dd>', '<dt>',
  '<span class=a class=b>', '</span>', '<P>', '</DIV>', '<body>', '</body>', '</html>',
]; // prettier-ignore

describe('TreeParser', () => {
  it("builds the tree htmlparser2's Parser and domhandler build, whole and written in two pieces at every cut", () => {
    for (const markup of MARKUP) {
      const expected = theirs([markup]);
      expect(ours([markup]), markup).toEqual(expected);
      for (let cut = 1; cut < markup.length; cut++) {
        expect(ours([markup.slice(0, cut), markup.slice(cut)]), `${markup} cut at ${cut}`).toEqual(expected);
      }
    }
  });

  it('builds the same tree on random markup', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const markup = randomMarkup(seed, 300, TREE_PARTS);
      expect(ours([markup]), markup).toEqual(theirs([markup]));
    }
  });

  it('drops elements past the depth cap as parse.ts does, their content kept at the cap', () => {
    const open = '<div><section><span>'.repeat(Math.ceil(MAX_NESTING_DEPTH / 3) + 20);
    const markup = `<body>${open}deep<img src=d><b>bold</b></span>x</section>y</div>z</body><p>after</p>`;
    const tree = ours([markup]);
    expect(tree).toEqual(theirs([markup]));
    expect(JSON.stringify(tree)).toContain('"deep"');
  });
});
