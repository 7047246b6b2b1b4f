/** A step in the life of a disputed payment: the dispute opens then is ruled on; the money is priced then released. */
export type DisputeStep = 'open' | 'rule' | 'price' | 'release';

/** Every interleaving of the two chains open → rule and price → release (six). */
export function disputeInterleavings(): DisputeStep[][] {
  const all: DisputeStep[][] = [];
  const walk = (dispute: DisputeStep[], money: DisputeStep[], steps: DisputeStep[]): void => {
    if (dispute.length === 0 && money.length === 0) all.push(steps);
    if (dispute.length > 0) walk(dispute.slice(1), money, [...steps, dispute[0]]);
    if (money.length > 0) walk(dispute, money.slice(1), [...steps, money[0]]);
  };
  walk(['open', 'rule'], ['price', 'release'], []);
  return all;
}
