// The numbers ARTICLE.md states, used only to compare the live numbers with the claim (the text
// of each claim is quoted in the message catalogue). Tolerances say when a claim "holds".
export const CLAIMED = {
  c1Std512: 22.6,
  c3Var512: 0.002,
  c4EntropySqrt: 4.85,
  c5Jac10: 0.0001,
  c5JacScaled: 0.5,
} as const;

/** |live − claimed| ≤ rel · |claimed| */
export function near(live: number, claimed: number, rel: number): boolean {
  return Math.abs(live - claimed) <= rel * Math.abs(claimed);
}
