import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import test from 'ava';

/** Pure data and computation libraries core may use; no framework, driver, I/O or DI container. */
const ALLOWED_PACKAGES = new Set(['currency-codes', 'decimal.js', 'ipaddr.js']);

const SOURCE = join(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every `import … from '…'` / `export … from '…'` / `import('…')` specifier of a file. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(|require\s*\()\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
}

/** The source file (relative to src, `/`-separated, no extension) a relative specifier names. */
function resolved(file: string, specifier: string): string {
  const base = join(dirname(file), specifier);
  const path = existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
  return relative(SOURCE, path).split(sep).join('/').replace(/\.ts$/, '');
}

const moduleOf = (path: string): string | undefined => (path.includes('/') ? path.split('/')[0] : undefined);

test('core imports nothing but its own modules and pure libraries', (t) => {
  const offences: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, 'utf8');
    for (const target of specifiers(text)) {
      if (target.startsWith('.')) continue;
      if (!ALLOWED_PACKAGES.has(target)) offences.push(`${relative(SOURCE, file)} imports ${target}`);
    }
    if (/\bprocess\.env\b|\bDate\.now\(|new Date\(\)|Math\.random\(/.test(text))
      offences.push(`${relative(SOURCE, file)} reads a hidden input (env, time or randomness)`);
  }
  t.deepEqual(offences, []);
});

test("one capability reaches another only through that module's index", (t) => {
  const offences: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const from = relative(SOURCE, file).split(sep).join('/');
    for (const specifier of specifiers(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
      const target = resolved(file, specifier);
      const targetModule = moduleOf(target);
      if (targetModule && targetModule !== moduleOf(from) && target !== `${targetModule}/index`) offences.push(`${from} imports ${target}`);
    }
  }
  t.deepEqual(offences, []);
});

test("a module's domain holds rules only: it imports no port and no use case", (t) => {
  const offences: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const from = relative(SOURCE, file).split(sep).join('/');
    if (!/^[^/]+\/domain\//.test(from)) continue;
    for (const specifier of specifiers(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
      const target = resolved(file, specifier);
      if (/\/(ports|use-cases)\//.test(target) || /\.port$/.test(target)) offences.push(`${from} imports ${target}`);
    }
  }
  t.deepEqual(offences, []);
});

test('the purity checks see the source tree', (t) => {
  t.true(sourceFiles(SOURCE).length > 20);
  t.true(sourceFiles(SOURCE).some((file) => /[/\\]domain[/\\]/.test(file)));
});
