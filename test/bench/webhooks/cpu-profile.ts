import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/**
 * Preloaded (`NODE_OPTIONS=--require …/cpu-profile.js`) into the processes of a profiled run: Node
 * 20 refuses `--cpu-prof` in NODE_OPTIONS, and the worker is started by the e2e helper with no
 * room for flags of its own. Writes what `--cpu-prof` would, to BENCH_CPU_PROFILE_DIR, at exit
 * (an in-thread inspector session answers synchronously, so the 'exit' handler can still write).
 */
const directory = process.env.BENCH_CPU_PROFILE_DIR;
if (directory !== undefined && directory !== '') {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    // All threads' CPU (the profile has the main thread's only), start-up included.
    const { user, system } = process.cpuUsage();
    writeFileSync(join(directory, `CPU.${process.pid}.usage.json`), JSON.stringify({ userMs: user / 1000, systemMs: system / 1000 }));
    session.post('Profiler.stop', (error, result) => {
      if (error === null) writeFileSync(join(directory, `CPU.${Date.now()}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
