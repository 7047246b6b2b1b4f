import test from 'ava';
import { parseDatabaseUrl } from '../src/database-url';

test('a mysql URL gives host, port, user, password and database, percent-decoded', (t) => {
  t.deepEqual(parseDatabaseUrl('mysql://pay%40ments:p%3Ass@db.internal:3307/payments'), {
    dialect: 'mysql',
    host: 'db.internal',
    port: 3307,
    user: 'pay@ments',
    password: 'p:ss',
    database: 'payments',
  });
});

test('mariadb:// is accepted, the port defaults to 3306 and an empty password is left out', (t) => {
  t.deepEqual(parseDatabaseUrl('mariadb://root@127.0.0.1/test'), {
    dialect: 'mysql',
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    database: 'test',
  });
});

test('sqlite URLs take relative, absolute and in-memory paths', (t) => {
  t.deepEqual(parseDatabaseUrl('sqlite:.data/payments.sqlite'), { dialect: 'sqlite', filename: '.data/payments.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite:/var/lib/payments/db.sqlite'), { dialect: 'sqlite', filename: '/var/lib/payments/db.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite:///var/lib/payments/db.sqlite'), { dialect: 'sqlite', filename: '/var/lib/payments/db.sqlite' });
  t.deepEqual(parseDatabaseUrl('sqlite::memory:'), { dialect: 'sqlite', filename: ':memory:' });
});

test('other schemes, a missing database and a missing path are refused with the accepted shapes', (t) => {
  t.throws(() => parseDatabaseUrl('postgres://u@h/db'), { message: /mysql:\/\/, mariadb:\/\/ or sqlite:/ });
  t.throws(() => parseDatabaseUrl('mysql://u@h:3306/'), { message: /must name a database/ });
  t.throws(() => parseDatabaseUrl('sqlite:'), { message: /needs a file path/ });
  t.throws(() => parseDatabaseUrl('not a url'), { message: /must look like/ });
});
