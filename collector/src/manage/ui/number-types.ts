// The pools' number types as a person chooses one: the type, its prefix, and what such numbers are.
import { COUNTRY_NUMBER_TYPES, NUMBER_TYPE_PREFIXES } from '../../../../shared/src/number-types.ts';
import { normalizePhone } from '../../../../shared/src/phone.ts';

/** What numbers of a prefix are, in France (the spec's table); foreign prefixes by their country. */
const KINDS: [RegExp, string][] = [
  [/^080[0-5]$/, 'free to call'],
  [/^080[6-9]$/, 'normal rate'],
  [/^08[12]/, 'shared cost'],
  [/^089/, 'premium rate'],
  [/^01$/, 'Paris and Île-de-France'],
  [/^02$/, 'north-west France'],
  [/^03$/, 'north-east France'],
  [/^04$/, 'south-east France'],
  [/^05$/, 'south-west France'],
  [/^06$/, 'mobile'],
  [/^09$/, 'non-geographic'],
  [/^0044/, 'United Kingdom'],
  [/^0049/, 'Germany'],
  [/^0034/, 'Spain'],
  [/^0032/, 'Belgium'],
];

export interface NumberType {
  type: number;
  prefix: string;
  label: string;
}

/** The spec's French types, by their prefix. */
const FRENCH_TYPES: NumberType[] = Object.entries(NUMBER_TYPE_PREFIXES).map(([type, prefix]) => {
  const kind = KINDS.find(([pattern]) => pattern.test(prefix))?.[1];
  return { type: Number(type), prefix, label: `${type}: ${prefix}…${kind ? `, ${kind}` : ''}` };
});

/** Ours (any prefix, checked by the number's type in the domain's country), named in words. */
const WORDS: Record<string, string> = { geographic: 'Local', 'toll-free': 'Toll-free', mobile: 'Mobile' };
const COUNTRY_TYPES: NumberType[] = Object.entries(COUNTRY_NUMBER_TYPES).map(([type, kind]) => ({ type: Number(type), prefix: '', label: `${WORDS[kind] ?? kind} numbers` }));

export const NUMBER_TYPES: NumberType[] = [...FRENCH_TYPES, ...COUNTRY_TYPES];

/** The types a domain of `country` chooses from, its own first (the first is the one proposed):
 * a French domain's the spec's, another's Local, Toll-free and Mobile, and France's only when asked
 * (`withFrench`: a US agency never wades through French prefixes). */
export function numberTypesFor(country: string, withFrench = false): NumberType[] {
  return country === 'FR' ? NUMBER_TYPES : withFrench ? [...COUNTRY_TYPES, ...FRENCH_TYPES] : COUNTRY_TYPES;
}

/** A pool's type as its heading says it: `Local numbers`, `1: 0800…, free to call`. */
export function typeName(type: number): string {
  return NUMBER_TYPES.find((t) => t.type === type)?.label ?? `Type ${type}`;
}

/** The numbers of a comma- or line-separated list that do not start with the type's prefix. */
export function offPrefix(list: string, type: number): string[] {
  const prefix = NUMBER_TYPE_PREFIXES[type];
  if (!prefix) return [];
  return list
    .split(/[\n,;]+/)
    .map((n) => n.trim())
    .filter(Boolean)
    .filter((n) => !(normalizePhone(n) ?? n).startsWith(prefix));
}
