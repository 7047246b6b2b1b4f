import test from 'ava';
import { drawableImageOrigin, pageCsp, PAGE_CSP } from '../src/http/page-security';

test('a page draws an image only from a plain https origin: nothing a CSP header would read as syntax', (t) => {
  t.is(drawableImageOrigin('https://api.omise.co/charges/chrg_1/documents/docu_1/downloads/qr.svg'), 'https://api.omise.co');
  t.is(drawableImageOrigin('https://files.example:8443/qr.png'), 'https://files.example:8443');
  for (const url of [
    undefined,
    'http://api.omise.co/qr.svg',
    'data:image/svg+xml,<svg/>',
    'javascript:alert(1)',
    '//api.omise.co/qr.svg',
    'https://user@api.omise.co/qr.svg',
    'https://user:secret@api.omise.co/qr.svg',
    // URL parsing lets these into a host; in the header they would end the directive or add a source.
    'https://evil.example;img-src*/qr.svg',
    'https://a.example,b.example/qr.svg',
    "https://a'b.example/qr.svg",
    'not a url',
  ]) {
    t.is(drawableImageOrigin(url), undefined, String(url));
  }
});

test('the page policy adds the one image origin it is given, and refuses one that is not plain', (t) => {
  t.true(PAGE_CSP.includes("img-src 'self';"));
  t.true(pageCsp('https://api.omise.co').includes("img-src 'self' https://api.omise.co;"));
  t.throws(() => pageCsp("https://evil.example; script-src 'unsafe-inline'"));
  t.throws(() => pageCsp('https://evil.example;img-src*'));
});
