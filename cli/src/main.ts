#!/usr/bin/env node
import { Payments } from '@payments/sdk';
import type { Command, Context } from './command.js';
import { optionalString, parseCommandLine, route } from './command-line/index.js';
import { ConfigStore, configDir, DEFAULT_API_BASE, keyPrefix } from './config.js';
import { CliError, describeError, errorEnvelope, EXIT, exitCodeOf, signalExitCode, UsageError } from './exit-codes.js';
import { Output } from './output.js';
import { PROGRAM } from './registry.js';

/** Runs one command line; resolves with the exit code (main() sets it; tests may call this). */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const wantsJson = argv.includes('--json');
  const out = new Output(wantsJson);
  try {
    return await dispatch(argv, env, out);
  } catch (error) {
    report(out, error);
    return exitCodeOf(error);
  }
}

/** An error on stderr: one line of text, or with --json the API's error envelope as one JSON line. */
function report(out: Output, error: unknown): void {
  out.log(out.json ? JSON.stringify(errorEnvelope(error)) : describeError(error));
}

async function dispatch(argv: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const routed = route(PROGRAM, argv);
  if (routed.kind === 'help') {
    process.stdout.write(routed.text);
    return EXIT.ok;
  }
  if (routed.kind === 'overview') {
    // No command named: the overview, on stderr as for any usage error (with --json, the error as JSON instead).
    if (out.json) throw new UsageError(`No command given; run ${PROGRAM.name} --help.`);
    process.stderr.write(routed.text);
    return EXIT.usage;
  }
  const { command } = routed;
  const { values, positionals } = parseCommandLine(PROGRAM, command, argv);

  const store = new ConfigStore(configDir(env));
  const profileName = optionalString(values, 'profile') ?? env.PAYMENTS_PROFILE ?? 'default';
  const profile = store.profile(profileName);
  const apiBase = checkApiBase(optionalString(values, 'api-base') ?? env.PAYMENTS_API_BASE ?? profile.api_base ?? DEFAULT_API_BASE);

  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C, or one during a command that does not stop by itself, ends at once.
    if (controller.signal.aborted || !command.handlesSignals) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let client: Payments | undefined;
  const apiKeyInEffect = (): string => {
    const apiKey = optionalString(values, 'api-key') ?? env.PAYMENTS_API_KEY ?? profile.api_key;
    if (!apiKey) {
      throw new CliError(`No API key for profile ${profileName}: run payments login, or pass --api-key or PAYMENTS_API_KEY.`, EXIT.authentication);
    }
    if (!/^[sr]k_(test|live)_/.test(apiKey))
      throw new CliError('The API key in use does not start with sk_test_, sk_live_, rk_test_ or rk_live_ (it is not shown).', EXIT.authentication);
    return apiKey;
  };
  const context: Context = {
    values,
    positionals,
    out,
    store,
    profileName,
    env,
    apiBase,
    signal: controller.signal,
    keyPrefix: () => keyPrefix(apiKeyInEffect()),
    client() {
      if (client) return client;
      const apiKey = apiKeyInEffect();
      client = new Payments(apiKey, {
        baseUrl: apiBase,
        ...(values.verbose
          ? {
              onResponse: (info) =>
                out.log(
                  `<- ${info.status} request ${info.requestId ?? '-'}${info.replayed ? ' (idempotent replay)' : ''}${info.attempts > 1 ? ` after ${info.attempts} tries` : ''}`,
                ),
            }
          : {}),
      });
      return client;
    },
  };
  try {
    const code = (await command.run(context)) ?? EXIT.ok;
    return stoppedBy ? stoppedExitCode(command, stoppedBy, code) : code;
  } catch (error) {
    if (!stoppedBy) throw error;
    // What the command was doing when it stopped ("Stopped while waiting: pi_… is processing."), and the signal's exit code.
    report(out, new CliError(error instanceof Error ? error.message : String(error), signalExitCode(stoppedBy)));
    return signalExitCode(stoppedBy);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * A command stopped by a signal exits as a shell reports one (130 for Ctrl-C, 143 for SIGTERM),
 * so a script tells "interrupted" from "done" and from "failed". A command that runs until it is
 * stopped (listen) exits with its own code on SIGTERM: that is how a supervisor ends it.
 */
function stoppedExitCode(command: Command, signal: NodeJS.Signals, code: number): number {
  if (signal === 'SIGTERM' && command.runsUntilStopped) return code;
  return signalExitCode(signal);
}

function checkApiBase(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`--api-base must be an http(s) URL, not ${JSON.stringify(value)}.`);
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
