import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './exit-codes.js';

/** What `payments login` stores per profile. */
export interface Profile {
  api_key?: string;
  api_base?: string;
  /** The local signing secret of `listen` and `events resend` (64 hex, like an endpoint secret). */
  webhook_secret?: string;
}

export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** Where `listen` resumes: the newest event it has handled, per profile. */
export interface ListenState {
  cursor?: string;
  /** The key prefix the cursor belongs to: another account's events have other ids. */
  key_prefix?: string;
  /** Recently handled ids (see event-follower.ts). */
  seen?: string[];
}

export const DEFAULT_API_BASE = 'http://localhost:4242';

/**
 * The config directory: PAYMENTS_CONFIG_DIR (tests, several accounts side by side), else the
 * XDG config dir, else ~/.config; always a `payments` folder of its own.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAYMENTS_CONFIG_DIR) return env.PAYMENTS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'payments');
}

export class ConfigStore {
  constructor(readonly dir: string) {}

  get configPath(): string {
    return join(this.dir, 'config.json');
  }

  read(): ConfigFile {
    const parsed = readJson<ConfigFile>(this.configPath);
    return { profiles: parsed?.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  }

  profile(name: string): Profile {
    checkProfileName(name);
    return this.read().profiles[name] ?? {};
  }

  /** Merges `changes` into one profile. */
  updateProfile(name: string, changes: Partial<Profile>): Profile {
    checkProfileName(name);
    const config = this.read();
    const next = { ...config.profiles[name], ...changes };
    config.profiles[name] = next;
    this.write(this.configPath, config);
    return next;
  }

  /** Removes the profile's API key and keeps the rest; answers the key removed, if there was one. */
  forgetKey(name: string): string | undefined {
    checkProfileName(name);
    const config = this.read();
    const profile = config.profiles[name];
    const key = profile?.api_key;
    if (!profile || key === undefined) return undefined;
    const { api_key: _removed, ...rest } = profile;
    config.profiles[name] = rest;
    this.write(this.configPath, config);
    return key;
  }

  listenState(profile: string): ListenState {
    checkProfileName(profile);
    return readJson<ListenState>(this.listenPath(profile)) ?? {};
  }

  saveListenState(profile: string, state: ListenState): void {
    checkProfileName(profile);
    this.write(this.listenPath(profile), state);
  }

  private listenPath(profile: string): string {
    return join(this.dir, `listen-${profile}.json`);
  }

  /**
   * Writes through a temporary file and a rename, so a crash or a second `payments` process never
   * leaves half a file; the directory is 0700 and every file 0600 because they hold API keys.
   */
  private write(path: string, value: unknown): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  }
}

function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the CLI's own file, written by writeJson with this same T.
    return JSON.parse(text) as T;
  } catch {
    // Never print the content: it holds API keys.
    throw new UsageError(`${path} is not valid JSON; fix or remove it, then run payments login again.`);
  }
}

function checkProfileName(name: string): void {
  // The name becomes part of a file name: keep it to a safe alphabet.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new UsageError(`Profile names use letters, digits, _ and - (at most 64): ${JSON.stringify(name.slice(0, 64))}.`);
}

/** What may be shown of a key: the prefix the dashboard lists (`sk_test_` or `rk_live_` … + 8 characters). */
export function keyPrefix(apiKey: string): string {
  return `${apiKey.slice(0, 16)}…`;
}
