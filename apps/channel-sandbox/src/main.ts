import { ChannelSandbox } from './sandbox';
import { loadSandboxConfig } from './sandbox-config';

/** `npm run start:sandbox`: the rest channel sandbox; logs JSON lines on stdout. */
async function main(): Promise<void> {
  const config = loadSandboxConfig(process.env);
  const log = (line: Record<string, unknown>): void => {
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
  };
  const sandbox = new ChannelSandbox({ ...config, log });
  const url = await sandbox.listen(config.port, config.host);
  log({ msg: 'sandbox listening', url });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start the sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
