// Extraction's vocabulary: the element sets and class-name patterns that the steps of reading HTML share — which
// elements start a block, which are never rendered, which are boilerplate by structure, which score as paragraphs,
// and Readability's class and id patterns. One home: a step that needs a set imports it from here, and a set that
// differs from another says why beside it.

/** Elements that start a new block of text; everything else is inline (markdown.ts, and scrape.ts's text). */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'tr', 'ul', 'caption', 'legend', 'search',
]); // prettier-ignore

/**
 * Elements never rendered as text a reader sees: scripts and styles, metadata, embedded objects, form controls,
 * media and their fallback, image maps, a closed `<dialog>`. The renderer's backstop (clean-hidden.ts removes most of
 * them before extraction).
 */
export const NEVER_RENDERED: ReadonlySet<string> = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'iframe', 'object', 'embed', 'canvas',
  'svg', 'math', 'select', 'input', 'textarea', 'button', 'option', 'datalist', 'audio', 'video', 'source', 'track',
  'map', 'area', 'dialog',
]); // prettier-ignore

/**
 * What clean-hidden.ts removes before extraction without counting it as hidden: never text a reader sees, but not a
 * hiding trick either. Narrower than NEVER_RENDERED: `<template>` is counted as hidden instead, and the rest of
 * NEVER_RENDERED goes at rendering; wider by the ruby annotations (`<rt>`, `<rp>`: the pronunciation printed above
 * the base text, which kept inline would interleave with every word of the sentence).
 */
export const NEVER_CONTENT: ReadonlySet<string> = new Set([
  'script', 'style', 'noscript', 'link', 'meta', 'iframe', 'object', 'embed', 'canvas', 'svg', 'select', 'input',
  'textarea', 'button', 'head',
  // Ruby annotations: the pronunciation printed above the base text (furigana). Kept inline they would interleave
  // with every word of the sentence they annotate.
  'rt', 'rp',
]); // prettier-ignore

/** Structural boilerplate, removed before scoring whatever its class says. */
export const BOILERPLATE_TAGS: ReadonlySet<string> = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'menu']);
/** ARIA roles of structural boilerplate, removed like BOILERPLATE_TAGS. */
export const UNLIKELY_ROLES: ReadonlySet<string> = new Set([
  'menu',
  'menubar',
  'complementary',
  'navigation',
  'alert',
  'alertdialog',
  'dialog',
]);

/**
 * Tags whose own text makes a scored paragraph (Readability's DEFAULT_TAGS_TO_SCORE, plus li and blockquote): an
 * inline child's text counts as its block's own text.
 */
export const SCORED_BLOCKS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li',
  'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'br',
]); // prettier-ignore

/** Wrappers whose last block is where the content ends (lists, tables and quotes are read whole). */
export const CONTAINER_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'article', 'main', 'header', 'center']);

// Readability's patterns, plus `author` and `byline` boxes (the only additions that hold on both halves of the eval
// split: docs/benchmarks.md, "Rules on trial"), and `cookie` and `consent` bars — a correction, not a measured rule:
// two pages moved, one a half, nothing lost on any page (docs/benchmarks.md, "Cards kept from the link-density
// tests"). Not handled: a page about cookies whose blocks say so in their class (a recipe grid) loses them, unless a
// block holds most of the page's prose.
export const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|author|byline|cookie|consent/i;
export const MAYBE_CANDIDATE = /and|article|body|column|content|main|mathjax|shadow/i;
// Readability's class and id patterns (`classWeight`): content-like +25, boilerplate-like −25. `cta` (a call to
// action: a donation appeal, a sign-up box) as a whole token is ours (issue 24: a page builder's `widget-cta` is a
// layout word and a function word, and the function word decides).
export const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story|paragraph|prose|rich-?text/i;
export const NEGATIVE =
  /(?:^|[-_\s])cta(?:$|[-_\s])|-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

// Layout words: they name where a block sits or how it is drawn (`overflow-hidden`, a page builder's `widget`, the
// `header` that holds an article's lead, a `scroll`-reveal section), not what it says. A block whose class or id
// matches UNLIKELY or NEGATIVE only through these is judged by its text: one that reads as prose stays (issue 24;
// docs/benchmarks.md, "Rules on trial (issue 24)"). Function words (`comment`, `footer`, `related`, `share`…) still
// remove a block whatever it holds.
export const LAYOUT_WORDS = /hidden|widget|header|banner|scroll|media|masthead/gi;

// Sign-up boxes: a newsletter form or a subscription pitch set inside the content. Removed from the chosen content
// whatever else the class says (issue 24; docs/benchmarks.md, "Rules on trial (issue 24)").
export const SIGN_UP = /newsletter|sign-?up|subscri/i;

// Picture captions and credits outside <figcaption>: WordPress's `wp-caption-text`, `credit`, `copyright` lines,
// `img-metadata`, `image-annotation`. Short, and without the picture itself (a wrapper holding the image stays).
export const CAPTION = /caption|credit|copyright|img-?meta|image-?annotation/i;
