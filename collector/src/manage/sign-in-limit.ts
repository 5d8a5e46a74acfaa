// Moved to team/ (issue 53: the account's people in one room); this path stays for what imported it.
export * from '../team/sign-in-limit.ts';
