// Bundles the console for the browser: one script and one stylesheet in dist/, served by the API
// under /dashboard/assets. Nothing is loaded from another origin at run time.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(join(here, 'dist'), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  outfile: join(here, 'dist', 'console.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome114', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(here, 'src', 'console.css'), join(here, 'dist', 'console.css'));
// The Thai subset of Noto Sans Thai, regular and bold, served beside the stylesheet that names it
// (console.css): Thai reads on a machine without a Thai font, and nothing comes from elsewhere.
const fonts = join(dirname(require.resolve('@fontsource/noto-sans-thai/package.json')), 'files');
for (const weight of [400, 700]) {
  const file = `noto-sans-thai-thai-${weight}-normal.woff2`;
  copyFileSync(join(fonts, file), join(here, 'dist', file));
}
