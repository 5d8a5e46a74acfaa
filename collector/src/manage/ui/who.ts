// Who is signed in, and what their role lets the page show. The server checks every request
// (manage/roles.ts); the page leaves out the controls a role may not use, so nobody meets a 403.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type Role = 'owner' | 'admin' | 'analyst' | 'agent';

export interface Who {
  username: string;
  account: string;
  role: Role;
  /** The domains the member is given; null: every domain of the account. */
  domains: string[] | null;
  csrfToken: string;
}

/** What a role may do, as roles.ts says. */
export const may = {
  readReports: (who: Who) => who.role !== 'agent',
  giveVerdicts: (who: Who) => who.role !== 'analyst',
  manageDomain: (who: Who) => who.role === 'owner' || who.role === 'admin',
  readActivity: (who: Who) => who.role === 'owner' || who.role === 'admin',
  manageAccount: (who: Who) => who.role === 'owner',
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
