/**
 * Text fit for a model's API: lone UTF-16 surrogates (half an emoji, from a terminal or a paste cut
 * in the middle) become U+FFFD. A lone surrogate in the request's JSON gets HTTP 400 from the
 * Anthropic API, and once in the conversation it would break every later request.
 */
export const wellFormed = (s: string): string =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
