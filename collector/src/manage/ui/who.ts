// Who is signed in, and what their role lets the page show. The server checks every request by
// the rules of team/roles.ts; the page reads the same rules to leave out the controls a role may
// not use, so nobody meets a 403.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { RULES, type Role, type Rule } from '../../team/roles.ts';

export { ROLES, type Role } from '../../team/roles.ts';

export interface Who {
  username: string;
  account: string;
  role: Role;
  /** The domains the member is given; null: every domain of the account. */
  domains: string[] | null;
  csrfToken: string;
}

const allows = (rule: Rule) => (who: Who) => rule.roles === null || rule.roles.includes(who.role);

/** What a role may do: the server's rules. */
export const may = {
  readReports: allows(RULES.readReports),
  giveVerdicts: allows(RULES.giveVerdicts),
  answerLeads: allows(RULES.answerLeads),
  manageDomain: allows(RULES.manageDomain),
  readActivity: allows(RULES.readActivity),
  manageAccount: allows(RULES.manageAccount),
};

export const WhoContext = createContext<Who | null>(null);

export function useWho(): Who {
  return useContext(WhoContext)!;
}

export const ROLE_NOTES: Record<Role, string> = {
  owner: 'everything: members, account keys, webhooks, every domain',
  admin: 'everything on their domains, except members and account-wide keys',
  analyst: 'reads every report, the calls log and call pages; changes nothing',
  agent: 'the calls log and call pages; gives verdicts',
};
