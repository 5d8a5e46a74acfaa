// Figures as people read them.
const integer = new Intl.NumberFormat('en');

export const count = (n: number) => integer.format(n);

export const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 2 : 1)}%`;

export const money = (amount: number, currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);

export function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  return m ? `${m} min ${seconds % 60} s` : `${seconds} s`;
}

/** `0123456789` -> `01 23 45 67 89`. */
export const phone = (digits: string | null) => (digits ? digits.replace(/(\d\d)(?=\d)/g, '$1 ') : '');
