/** Where the data lives, as read from `PAYMENTS_DATABASE_URL`. */
export type DatabaseTarget =
  | {
      readonly dialect: 'mysql';
      readonly host: string;
      readonly port: number;
      readonly user: string;
      readonly password?: string;
      readonly database: string;
    }
  | { readonly dialect: 'sqlite'; readonly filename: string };

/**
 * Reads `mysql://user:pass@host:port/db` (or `mariadb://…`) and `sqlite:<path>` (a relative path
 * is relative to the working directory; `sqlite:///abs/path` and `sqlite::memory:` work too).
 * Throws an Error naming the accepted shapes for anything else.
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseTarget {
  if (databaseUrl.startsWith('sqlite:')) {
    let filename = databaseUrl.slice('sqlite:'.length);
    if (filename.startsWith('//')) filename = filename.slice(2);
    if (filename === '') throw new Error('A sqlite database URL needs a file path, e.g. sqlite:.data/payments.sqlite');
    return { dialect: 'sqlite', filename };
  }
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error('The database URL must look like mysql://user:pass@host:3306/db or sqlite:.data/payments.sqlite');
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') {
    throw new Error(`Unsupported database URL scheme '${url.protocol}'; use mysql://, mariadb:// or sqlite:`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '') throw new Error('The database URL must name a database, e.g. mysql://user:pass@host:3306/payments');
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  return {
    dialect: 'mysql',
    host: url.hostname,
    port: url.port === '' ? 3306 : Number(url.port),
    user: decodeURIComponent(url.username),
    ...(password === undefined ? {} : { password }),
    database,
  };
}
