// Figures as people read them, on the back end's screens and in mails alike.
const integer = new Intl.NumberFormat('en');

export const count = (n: number) => integer.format(n);

/** Calls per visit and the like: may exceed 1, so never a percentage. */
export const ratio = (n: number) => n.toFixed(2);

export const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 2 : 1)}%`;

export const money = (amount: number, currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

/** A figure against the same figure of the period before: `+25%`, `−10%`, `new`, `same`. */
export function change(now: number, before: number): string {
  if (now === before) return 'same';
  if (!before) return 'new';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct)}%`;
}

/** A rate against the rate of the period before, in points: `+1.5 pt`. */
export function pointsChange(now: number, before: number): string {
  const points = Math.round((now - before) * 1000) / 10;
  return points === 0 ? 'same' : `${points > 0 ? '+' : '−'}${Math.abs(points)} pt`;
}

/** A source class as people read it, on the overview and in the summaries. */
export const SOURCE_NAMES: Record<string, string> = { paid: 'Paid search', organic: 'Organic search', social: 'Social', referral: 'Referral', direct: 'Direct', offline: 'Offline numbers', unattributed: 'Unattributed' };
