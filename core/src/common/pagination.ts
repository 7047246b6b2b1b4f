/** A cursor page request: newest first, after the object named by `startingAfter`. */
export interface PageRequest {
  readonly limit: number;
  readonly startingAfter?: string;
}

export interface Page<T> {
  readonly data: T[];
  readonly hasMore: boolean;
}
