export * from './phone.ts';
export * from './number-types.ts';
export * from './schemas/wire.ts';
export * from './schemas/tracking.ts';
export * from './schemas/browser.ts';
export * from './schemas/offline.ts';
export * from './schemas/telephony.ts';
export * from './schemas/data.ts';
