// The tracking family's failures live beside their envelope (http/tracking-failure.ts); this name
// stays for what imported it here.
export * from '../http/tracking-failure.ts';
