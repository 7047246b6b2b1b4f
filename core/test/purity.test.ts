import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

test('core imports nothing but its own modules and pure libraries', (t) => {
  const offences: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(|require\s*\()\s*['"]([^'"]+)['"]/g)) {
      const target = match[1] as string;
      if (target.startsWith('.')) continue;
      if (!ALLOWED_PACKAGES.has(target)) offences.push(`${relative(SOURCE, file)} imports ${target}`);
    }
    if (/\bprocess\.env\b|\bDate\.now\(|new Date\(\)|Math\.random\(/.test(text)) offences.push(`${relative(SOURCE, file)} reads a hidden input (env, time or randomness)`);
  }
  t.deepEqual(offences, []);
});

test('the purity check sees the source tree', (t) => {
  t.true(sourceFiles(SOURCE).length > 20);
});
