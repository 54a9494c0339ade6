import { describe, expect, it } from 'vitest';
import { extractArticle } from './extract-article.js';
import { withoutShortcodes } from './shortcodes.js';

describe('withoutShortcodes', () => {
  it('removes macros with attributes, closing tags and bare tags that are closed, keeping the text between', () => {
    expect(withoutShortcodes('[caption id="attachment_5" align="alignleft"]The bridge at dawn[/caption]')).toBe(
      'The bridge at dawn',
    );
    expect(withoutShortcodes('[et_pb_section fb_built="1"][et_pb_text]Hello.[/et_pb_text][/et_pb_section]')).toBe(
      'Hello.',
    );
    expect(withoutShortcodes('[gallery ids=12,13,14]')).toBe('');
  });

  it('leaves citations, editorial brackets and lone words in brackets alone', () => {
    const text = 'He said [sic] it was fine [1], see [citation needed] and [here].';
    expect(withoutShortcodes(text)).toBe(text);
  });
});

describe('extractArticle with shortcodes', () => {
  it('renders a post whose builder macros reached the HTML without them', () => {
    const prose = 'The council agreed, after a long debate, to publish the report on the harbour in spring. ';
    const html = `<html><head><title>Post</title></head><body><article>
      <p>[vc_row][vc_column width="2/3"]${prose.repeat(3)}</p><p>${prose}[/vc_column][/vc_row]</p>
      <pre><code>[shortcode attr="kept in code"]</code></pre></article></body></html>`;
    const { markdown } = extractArticle(html, { baseUrl: 'https://example.com/post' });
    expect(markdown).toContain('The council agreed');
    expect(markdown).not.toMatch(/vc_row|vc_column/);
    expect(markdown).toContain('[shortcode attr="kept in code"]');
  });
});
