/**
 * The slice of better-sqlite3 12's API the floor uses. The package ships no types and
 * @types/better-sqlite3 is not a dependency (the service reaches it through knex only).
 */
declare module 'better-sqlite3' {
  namespace Database {
    interface RunResult {
      changes: number;
      lastInsertRowid: number | bigint;
    }

    /** `Row`: the columns its SELECT names, as @types/better-sqlite3 types them. */
    interface Statement<Row = unknown> {
      run(...params: unknown[]): RunResult;
      get(...params: unknown[]): Row | undefined;
      all(...params: unknown[]): Row[];
    }

    interface Database {
      prepare<Row = unknown>(source: string): Statement<Row>;
      exec(source: string): this;
      pragma(source: string): unknown;
      close(): this;
      readonly inTransaction: boolean;
    }
  }

  const Database: new (filename: string) => Database.Database;
  export = Database;
}
