import type { Page } from 'playwright-core';

/**
 * What a page of the console must hold at any width, measured in the page itself:
 * - nothing scrolls sideways: `document.documentElement.scrollWidth <= innerWidth`;
 * - no text is wider than the table cell or fact it stands in;
 * - no word or id is broken inside itself: a run of Latin letters, digits and `_` (Thai has no
 *   spaces, so only Latin runs are words here) lies on one line. Ids and URLs wrap only where the
 *   console put a break opportunity (`<wbr>`), which splits them into text nodes of their own.
 * Each problem is a sentence naming the text.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const problems = [];
    const width = window.innerWidth;
    const scroll = document.documentElement.scrollWidth;
    if (scroll > width) problems.push('scrolls sideways: ' + scroll + ' > ' + width);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent || '';
      if (!text.trim()) continue;
      const parent = node.parentElement;
      if (!parent || !parent.checkVisibility({ visibilityProperty: true }) || parent.closest('.visually-hidden, pre, dialog:not([open])')) continue;
      const cell = parent.closest('td, th, dd');
      if (cell) {
        const box = cell.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (rect.width > 0 && (rect.right > box.right + 1 || rect.left < box.left - 1)) {
            problems.push('wider than its cell: "' + text.trim().slice(0, 60) + '"');
            break;
          }
        }
      }
      for (const match of text.matchAll(/[A-Za-z0-9_]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) problems.push('broken inside a word: "' + match[0] + '"');
      }
    }
    return problems;
  })()`);
}

/** Where the header (the top bar and the test-mode banner) ends, in CSS pixels from the top. */
export function headerBottom(page: Page): Promise<number> {
  return page.evaluate<number>(
    "Math.max(...[...document.querySelectorAll('header.top, .test-banner')].map((element) => element.getBoundingClientRect().bottom))",
  );
}

/** Currency codes are names, not words to translate. */
const NAMES = new Set(['THB', 'USD', 'SGD', 'MYR', 'PHP', 'IDR']);

/**
 * The English words a person reads on a Thai page: Latin words in its visible text, its labels for
 * screen readers (`aria-label`) and its tooltips, outside what is a name or code and marked so
 * (`translate="no"`, `<code>`, `<pre>`, `lang="en"`: ids, event types, emails, brand names, the
 * language's own name), ids named in a label (`sk_test_…`), the user's own input, and currency codes.
 */
export async function englishWordsIn(page: Page): Promise<string[]> {
  const words = await page.evaluate<string[]>(`(() => {
    const skip = (element) => !element || element.closest('[translate="no"], code, pre, [lang="en"], script, style, noscript, input, textarea');
    const found = [];
    // An id (sk_test_…, evt_…) or an email named in a label is a code or an address, not a word.
    const id = /^[(]?[a-z]{1,4}_[A-Za-z0-9_]+[)…]*$/;
    const words = (text) => {
      for (const token of text.split(/ +/)) {
        if (id.test(token) || token.includes('@')) continue;
        for (const match of token.matchAll(/[A-Za-z]{2,}/g)) found.push(match[0] + ' ← ' + text.trim().slice(0, 50));
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (skip(node.parentElement)) continue;
      words(node.textContent || '');
    }
    for (const element of document.querySelectorAll('[aria-label], [title]')) {
      if (skip(element)) continue;
      words((element.getAttribute('aria-label') || '') + ' ' + (element.getAttribute('title') || ''));
    }
    return found;
  })()`);
  return words.filter((entry) => !NAMES.has(entry.split(' ← ')[0] ?? ''));
}
