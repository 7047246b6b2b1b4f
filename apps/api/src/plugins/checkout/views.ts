import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Eta } from 'eta';
import type { CheckoutPageView } from './page-view';
import { STRINGS, type Language } from './strings';

/**
 * Templates and static files live beside the package (`apps/api/checkout-assets`), outside `src`,
 * so the compiler leaves them alone; from `dist/src/plugins/checkout` that is four levels up.
 */
export const ASSETS_DIR = resolve(__dirname, '../../../../checkout-assets');

export interface StaticAsset {
  readonly body: string;
  readonly type: string;
}

/** The page's renderer: Eta with escaping on by default; only the server-made QR SVG goes in raw. */
export class CheckoutViews {
  private readonly eta = new Eta({ views: join(ASSETS_DIR, 'views'), autoEscape: true, cache: true });
  /** Read once at start: two small files, served from memory. */
  readonly assets: Readonly<Record<string, StaticAsset>> = {
    'checkout.css': { body: readFileSync(join(ASSETS_DIR, 'static', 'checkout.css'), 'utf8'), type: 'text/css; charset=utf-8' },
    'checkout.js': { body: readFileSync(join(ASSETS_DIR, 'static', 'checkout.js'), 'utf8'), type: 'text/javascript; charset=utf-8' },
  };

  page(view: CheckoutPageView): string {
    return this.eta.render('./page', view);
  }

  /**
   * The page for an unknown token, an expired session, or a page loaded too often (the per-token
   * rate limit): the same template, only the words differ.
   */
  unavailable(lang: Language, kind: 'expired' | 'not_found' | 'busy'): string {
    const t = STRINGS[lang];
    const words = { expired: [t.expiredTitle, t.expiredBody], not_found: [t.notFoundTitle, t.notFoundBody], busy: [t.busyTitle, t.busyBody] }[kind];
    return this.eta.render('./unavailable', { lang, t, kind, title: words[0], body: words[1] });
  }

  wallet(lang: Language): string {
    return this.eta.render('./wallet', { lang, t: STRINGS[lang] });
  }
}

let shared: CheckoutViews | undefined;

/** The one renderer the checkout routes share: templates compiled and files read on first use. */
export function checkoutViews(): CheckoutViews {
  return (shared ??= new CheckoutViews());
}
