import ava from 'ava';
import nock from 'nock';

/**
 * For a test file whose HTTP peers are nock interceptors: no request reaches the network, no
 * interceptor outlives its test, and, since nock's interceptors are process-wide, the file's tests
 * run one at a time. Call it once at the top of the file and declare the tests with what it returns.
 */
export function nockOnlySerialTests(): typeof ava.serial {
  nock.disableNetConnect();
  ava.afterEach.always(() => {
    nock.cleanAll();
  });
  ava.after.always(() => {
    nock.enableNetConnect();
  });
  return ava.serial;
}
