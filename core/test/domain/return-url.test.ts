import test from 'ava';
import { validateReturnUrl } from '../../src/payments/domain/return-url';

const accepted = [
  'https://shop.example.com/done',
  'https://shop.example.com:8443/done?x=1#y',
  'https://xn--bcher-kva.example/',
  'https://a.b.c.example.co.th/',
];
const refused = [
  'http://shop.example.com/',
  'ftp://shop.example.com/',
  'https://127.0.0.1/',
  'https://2130706433/',
  'https://0x7f.1/',
  'https://[::1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://app.localhost/',
  'https://user@shop.example.com/',
  'https://:pw@shop.example.com/',
  'https://intranet/',
  'https://shop.example.123/',
  'shop.example.com/done',
  '',
  `https://shop.example.com/${'a'.repeat(2048)}`,
];

for (const url of accepted) {
  test(`accepts ${url}`, (t) => {
    t.is(validateReturnUrl(url), url);
  });
}

for (const url of refused) {
  test(`refuses ${url.slice(0, 60) || '(empty)'} with invalid_return_url`, (t) => {
    const error = t.throws(() => validateReturnUrl(url));
    t.like(error, { code: 'invalid_return_url', param: 'return_url' });
  });
}
