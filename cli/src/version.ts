import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION as SDK_VERSION } from '@payments/sdk';

/**
 * This package's version, read from its package.json (two folders up from dist/src, in the
 * repository and in an installed package alike), so a release bumps one file only.
 */
export function cliVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const version: unknown = typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'version') : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/** What `payments --version` prints: the command's version, the SDK's it runs on, and Node's. */
export function versionLine(): string {
  return `payments ${cliVersion()} (@payments/sdk ${SDK_VERSION}, node ${process.version})`;
}
