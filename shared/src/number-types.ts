// The spec's type and prefix reference (parameter `type`).
export const NUMBER_TYPE_PREFIXES: Readonly<Record<number, string>> = {
  1: '0800', 2: '0810', 3: '09', 4: '0820', 5: '0899', 6: '01', 7: '02', 8: '03', 9: '04', 10: '05',
  11: '0892', 12: '0897', 17: '0826', 18: '0805', 20: '0811', 21: '0821', 22: '0825', 23: '004420',
  24: '0049', 25: '004990', 26: '0034900', 27: '004491', 28: '00349', 29: '0044800', 30: '0032',
  31: '0891', 32: '0890', 33: '0895', 34: '0806', 35: '0809', 36: '06',
};

/** Ours: types valid in any country, checked by the number's type in the domain's country
 * (collector/src/domains/phone-numbers.ts) instead of a prefix. */
export const COUNTRY_NUMBER_TYPES: Readonly<Record<number, string>> = { 100: 'geographic', 101: 'toll-free', 102: 'mobile' };

export function isKnownNumberType(type: number): boolean {
  return Object.hasOwn(NUMBER_TYPE_PREFIXES, type) || Object.hasOwn(COUNTRY_NUMBER_TYPES, type);
}

/** The offline numbers reference lists type IDs 1 to 34 only; ours (100 to 102) are offline numbers
 * too, so that a domain outside France has offline numbers of its own country. */
export function isOfflineNumberType(type: number): boolean {
  return (type <= 34 && isKnownNumberType(type)) || Object.hasOwn(COUNTRY_NUMBER_TYPES, type);
}
