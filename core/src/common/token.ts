declare const boundTo: unique symbol;

/**
 * The name a port is bound under at the composition root, carrying the type that must be bound to
 * it, so wiring a use case is type-checked field by field. Core names its ports; the apps choose
 * what answers them (core itself depends on no container).
 */
export type Token<T> = symbol & { readonly [boundTo]?: T };

export function token<T>(description: string): Token<T> {
  return Symbol(description);
}
