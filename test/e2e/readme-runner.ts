import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/** Where the READMEs tell a reader the service listens. */
const README_BASE_URL = 'http://localhost:4242';

/**
 * The code blocks of `lang` between `<!-- <marker>:start -->` and `<!-- <marker>:end -->` of a
 * README (path relative to the repository root), joined in order.
 */
export function readmeBlocks(readme: string, marker: string, lang = 'sh'): string {
  const text = readFileSync(join(REPO_ROOT, readme), 'utf8');
  const section = new RegExp(`<!-- ${marker}:start -->([\\s\\S]*?)<!-- ${marker}:end -->`).exec(text)?.[1] ?? '';
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]).join('\n');
}

export interface ReadmeService {
  readonly environment: ServiceEnvironment;
  readonly service: RunningService;
  /** Text with the README's base URL pointed at the service under test (the one liberty taken). */
  readonly localize: (text: string) => string;
  /** Runs a README's shell text with bash -euo pipefail at the repository root against the service. */
  readonly run: (script: string, options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }) => SpawnSyncReturns<string>;
}

/**
 * One started service (own database, free port) for the tests of a file, stopped after them;
 * `cleanup` runs last (files a README leaves behind).
 */
export function readmeService(cleanup: () => void = () => undefined): () => ReadmeService {
  let environment: ServiceEnvironment | undefined;
  let service: RunningService | undefined;
  test.before(async () => {
    environment = await serviceEnvironment();
    service = await startService(environment.env);
  });
  test.after.always(async () => {
    await service?.stop();
    await environment?.cleanup();
    cleanup();
  });
  return () => {
    if (!environment || !service) throw new Error('The service was not started.');
    const started = { environment, service };
    const localize = (text: string): string => text.replaceAll(README_BASE_URL, started.service.baseUrl);
    return {
      ...started,
      localize,
      run: (script, options = {}) =>
        spawnSync('bash', ['-euo', 'pipefail', '-c', localize(script)], {
          cwd: REPO_ROOT,
          env: options.env ?? started.environment.env,
          encoding: 'utf8',
          timeout: options.timeoutMs ?? 60_000,
        }),
    };
  };
}
