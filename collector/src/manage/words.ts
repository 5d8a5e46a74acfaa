// What the back end writes about a domain's numbers and money, in a person's words (issue 81): a
// pool as its heading says it ("Local numbers", never "type 100"), an amount in its currency.
import { typeName } from './ui/number-types.ts';

/** A pool by its type, as its heading says it. */
export const poolWords = (type: number): string => typeName(type);

/** An amount in its currency: `$1.15`, `€22.00`. */
export { money } from '../reports/figures.ts';
