import test from 'ava';
import { eventually, redisSuite, redisTestUrl } from './redis-test-support';

if (!redisTestUrl) {
  test('redis reconnection tests need PAYMENTS_TEST_REDIS_URL', (t) => t.pass());
} else {
  const suite = redisSuite(redisTestUrl, 'reconnect');

  test('redis: a reconnection whose handshake the server drops is retried; the client never claims a dead connection is ready', async (t) => {
    const { relay, client } = await suite.relayed(t);
    t.is(await client.ping(), 'PONG');
    // Redis goes away, and comes back accepting connections that it drops during the handshake, twice.
    await relay.cut();
    await eventually(() => !client.isReady, 5_000);
    relay.dropNextHandshakes(2);
    await relay.listen();
    // Each command has its own deadline, as the adapters give theirs: a client that took the dropped
    // connection for a ready one would time out here for good instead of answering.
    const ping = (): Promise<string | undefined> =>
      Promise.race([client.ping().catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(resolve, 500, undefined))]);
    const deadline = Date.now() + 15_000;
    let answer: string | undefined;
    while (answer !== 'PONG' && Date.now() < deadline) {
      answer = await ping();
      if (answer !== 'PONG') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.is(answer, 'PONG', 'the client answers again once Redis accepts connections for good');
  });
}
