// The four roles of an account's members and what each may do. Every route of the management API
// names one of these rules (manage/access.ts checks it on the server); test/manage/roles.test.ts
// calls every route as every role, so a route added without a rule fails it.
//
// | role    | may                                                                                   |
// |---------|---------------------------------------------------------------------------------------|
// | owner   | everything: members, account keys, webhooks, every domain's settings                  |
// | admin   | everything on the domains they are given, except members and account-wide keys        |
// | analyst | read every report, the calls log and call pages, rules, download files; tag calls      |
// | agent   | the calls log and call pages of their domains; give verdicts, values and tags          |
export const ROLES = ['owner', 'admin', 'analyst', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export interface Rule {
  /** Who may; null: anyone, signed in or not (sign-in, invitations, the public config). */
  roles: readonly Role[] | null;
  /** What the rule allows, as the refusal names it: "Your role (analyst) may not <what>". */
  what: string;
}

export const RULES = {
  anyone: { roles: null, what: '' },
  /** Any member: their own session, password and sessions, the list of their domains. */
  member: { roles: ROLES, what: 'use the back end' },
  /** The calls log and call pages, and the domain they are of. */
  readCalls: { roles: ROLES, what: 'read the calls log' },
  /** The other reports, their files, the agents' figures. */
  readReports: { roles: ['owner', 'admin', 'analyst'], what: 'read reports or download files' },
  giveVerdicts: { roles: ['owner', 'admin', 'agent'], what: 'give verdicts on calls' },
  /** Put tags on calls and forms, and take them off (rules/). */
  tagCalls: { roles: ROLES, what: 'tag calls' },
  /** A domain's rules, read (rules/). */
  readRules: { roles: ['owner', 'admin', 'analyst'], what: 'read rules' },
  /** A domain's rules and the account's tags, written (rules/). */
  writeRules: { roles: ['owner', 'admin'], what: 'write rules or tags' },
  /** A domain's settings, keys, pools, numbers, blocklist and shared links. */
  /** A domain's texting inbox, read (texting/): analysts read only. */
  readTexts: { roles: ROLES, what: 'read the texting inbox' },
  /** Text and call leads back from the tracking numbers, and be assigned their conversations. */
  answerLeads: { roles: ['owner', 'admin', 'agent'], what: 'text or call leads back' },
  manageDomain: { roles: ['owner', 'admin'], what: "change a domain's settings, numbers, keys or blocked callers" },
  readActivity: { roles: ['owner', 'admin'], what: 'read the activity log' },
  /** The account's webhook, its call-center key and delivery log. */
  manageAccount: { roles: ['owner'], what: "see or change the account's webhook and keys" },
  manageMembers: { roles: ['owner'], what: 'invite, change or remove members' },
} as const satisfies Record<string, Rule>;

/** Owners and admins see every domain unless limited; analysts and agents only those given. */
export function maySee(member: { role: Role; domains?: string[] }, domain: string): boolean {
  if (!member.domains) return member.role === 'owner' || member.role === 'admin';
  return member.domains.includes(domain);
}

/** Who a refused request should ask: "an owner or admin", "an owner, admin or analyst" (every
 * role's name begins with a vowel). */
export function whoMay(rule: Rule): string {
  const roles = [...(rule.roles ?? ROLES)];
  const last = roles.pop()!;
  return `an ${roles.length ? `${roles.join(', ')} or ${last}` : last}`;
}
