import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CoreError } from '@payments/core';

export interface ConsoleFile {
  readonly body: string | Buffer;
  readonly type: string;
}

/** The one HTML page every console path answers with; the script draws the page the path names. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Console</title>
    <link rel="stylesheet" href="/dashboard/assets/console.css" />
    <script type="module" src="/dashboard/assets/console.js"></script>
  </head>
  <body>
    <div id="app"></div>
    <noscript>The console needs JavaScript.</noscript>
  </body>
</html>
`;

/** Where the console package's build writes (`npm run build`). */
const CONSOLE_DIST = join(dirname(require.resolve('@payments/console/package.json')), 'dist');

const TYPES: Readonly<Record<string, string>> = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  // The Thai subset of Noto Sans Thai (@fontsource/noto-sans-thai), copied by the build.
  'noto-sans-thai-thai-400-normal.woff2': 'font/woff2',
  'noto-sans-thai-thai-700-normal.woff2': 'font/woff2',
};

/**
 * The console's pages (its router's, in apps/console/src/main.tsx): every other path under
 * /dashboard answers the same HTML with 404, and the script draws its not-found page.
 */
const PAGE_PATHS: readonly RegExp[] = [
  /^$/,
  /^(sign-in|signed-out|claim|payments|disputes|balance|developers|webhooks|events|team|settings)$/,
  /^(payments|disputes|settlements|webhooks|events)\/[A-Za-z0-9_]{1,64}$/,
  /^webhooks\/[A-Za-z0-9_]{1,64}\/deliveries\/[A-Za-z0-9_]{1,64}$/,
];

/** Whether `path` (below /dashboard/, without a trailing slash) is a page of the console. */
export function isConsolePage(path: string): boolean {
  const trimmed = path.replace(/\/$/, '');
  return PAGE_PATHS.some((pattern) => pattern.test(trimmed));
}

let files: Readonly<Record<string, ConsoleFile>> | undefined;

/**
 * The built script and stylesheet (`npm run build` writes them), read once and served from
 * memory. Missing files are a deployment that skipped the build: said plainly, not a 500.
 */
export function consoleFile(name: string): ConsoleFile {
  files ??= Object.fromEntries(
    Object.entries(TYPES).flatMap(([file, type]) => {
      try {
        const bytes = readFileSync(join(CONSOLE_DIST, file));
        return [[file, { body: type.startsWith('font/') ? bytes : bytes.toString('utf8'), type }]];
      } catch {
        return [];
      }
    }),
  );
  const file = Object.hasOwn(files, name) ? files[name] : undefined;
  if (file) return file;
  if (Object.hasOwn(TYPES, name)) throw new CoreError('api_error', 'unavailable', 'The console is not built: run `npm run build`.');
  throw new CoreError('resource_not_found', 'not_found', 'No such file.');
}

export const CONSOLE_PAGE: ConsoleFile = { body: PAGE, type: 'text/html; charset=utf-8' };
