// Loads a fixture into the database. Idempotent: the same file twice changes nothing, and the
// pool's runtime state (who holds which number) is never touched.
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { CallSummaries } from '../house/call-summaries.ts';
import { hashKey } from '../domains/keys.ts';
import { addOverflowNumber, addPoolNumber, numberRefusal } from '../domains/pool-numbers.ts';
import { settingsFields } from '../domains/settings.ts';
import { saveUser, usernameKey, UserError } from '../team/users.ts';
import { AlertChoicesStore } from '../alerts/choices.ts';
import { BlockedCallers } from '../telephony/blocked-callers.ts';
import type { Fixture } from './fixture.ts';
import { FlowRefused, FlowStore } from '../flows/flow-store.ts';
import type { FlowCollections } from '../flows/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';

export class SeedError extends Error {}

export interface SeedSummary {
  accounts: number;
  domains: number;
  numbers: number;
}

const DOMAIN_KEYS = ['apiKey', 'dataApiKey', 'offlineApiKey', 'customerKey', 'publicKey'] as const;

export async function seedFixture(c: FlowCollections & TeamCollections & DomainCollections & TrackingCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & PeopleCollections & AlertCollections, fixture: Fixture): Promise<SeedSummary> {
  await checkConsistency(c, fixture);
  const summary: SeedSummary = { accounts: 0, domains: 0, numbers: 0 };
  const blocklist = new BlockedCallers(c);
  for (const account of fixture.accounts) {
    await c.accounts.updateOne(
      { _id: account.name },
      { $set: { name: account.name, ...hashed({ callCenterApiKey: account.callCenterApiKey }), ...(account.webhookUrl ? { webhookUrl: account.webhookUrl, webhookSecret: account.webhookSecret } : {}), ...(account.webhookEvents ? { webhookEvents: account.webhookEvents } : {}) } },
      { upsert: true },
    );
    summary.accounts++;
    for (const { alerts, phone, available, ...user } of account.users) {
      await saveUser(c, account.name, user).catch(asSeedError);
      if (phone !== undefined || available !== undefined) await c.users.updateOne({ _id: usernameKey(user.username) }, { $set: { ...(phone !== undefined ? { phone } : {}), ...(available !== undefined ? { available } : {}) } });
      for (const [domain, choices] of Object.entries(alerts ?? {})) await new AlertChoicesStore(c).set({ _id: usernameKey(user.username), role: user.role }, domain, choices);
    }
    for (const d of account.domains) {
      const { pools, name, apiKey, dataApiKey, offlineApiKey, customerKey, publicKey, blockedCallers, callFlows, ...settings } = d;
      const doc: Omit<DomainDoc, '_id'> = {
        name,
        accountId: account.name,
        ...hashed({ apiKey, dataApiKey, offlineApiKey, customerKey, publicKey }),
        ...(publicKey ? { publicKey } : {}),
        ...settingsFields(settings),
        pools: pools.map(({ type, usage, codeDigits, costGroup, overflowNumber }) => ({ type, usage, codeDigits, ...(costGroup ? { costGroup } : {}), ...(overflowNumber ? { overflowNumber } : {}) })),
      };
      const before = await c.domains.findOne({ _id: name }, { projection: { timeZone: 1 } });
      await c.domains.updateOne({ _id: name }, { $set: doc }, { upsert: true });
      // The daily rollups are days of the domain's time zone: a new zone needs them counted again.
      if (before && before.timeZone !== doc.timeZone) await new CallSummaries(c).rebuild(name, doc.timeZone);
      summary.domains++;
      for (const pool of pools) {
        for (const number of pool.numbers) {
          await addPoolNumber(c, name, pool, number);
          summary.numbers++;
        }
        if (pool.overflowNumber) await addOverflowNumber(c, name, pool, pool.overflowNumber);
      }
      for (const caller of blockedCallers) await blocklist.add(name, caller, 'fixture');
      const flows = new FlowStore(c);
      for (const flow of callFlows) {
        const same = (await flows.list(name)).find((f) => f.name === flow.name);
        const domain = { _id: name, accountId: account.name, pools: doc.pools };
        await (same ? flows.update(domain, same._id, flow, 'fixture') : flows.create(domain, flow, 'fixture')).catch((err) => asSeedError(err instanceof FlowRefused ? new UserError(`${name}: call flow ${flow.name}: ${err.message}`) : err));
      }
    }
  }
  return summary;
}

function asSeedError(err: unknown): never {
  throw err instanceof UserError ? new SeedError(err.message) : err;
}

/** `{apiKey: "k"}` -> `{apiKeyHash: sha256("k")}`, leaving out absent keys. */
function hashed(keys: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(keys)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => [`${k}Hash`, hashKey(v)]),
  );
}

/** Refuses a fixture that would give one key or one number to two domains, or a number the wrong prefix. */
async function checkConsistency(c: DomainCollections, fixture: Fixture): Promise<void> {
  const keyOwner = new Map<string, string>();
  const numberOwner = new Map<string, string>();
  for (const d of fixture.accounts.flatMap((a) => a.domains)) {
    for (const k of DOMAIN_KEYS) {
      const value = d[k];
      if (value === undefined) continue;
      const owner = keyOwner.get(`${k}:${value}`);
      if (owner && owner !== d.name) throw new SeedError(`${k} of ${d.name} is already the ${k} of ${owner}`);
      keyOwner.set(`${k}:${value}`, d.name);
      const stored = await c.domains.findOne({ [`${k}Hash`]: hashKey(value), _id: { $ne: d.name } });
      if (stored) throw new SeedError(`${k} of ${d.name} is already the ${k} of ${stored._id}`);
    }
    for (const pool of d.pools) {
      for (const number of [...pool.numbers, ...(pool.overflowNumber ? [pool.overflowNumber] : [])]) {
        const owner = numberOwner.get(number);
        if (owner) throw new SeedError(`${number} appears twice (${owner} and ${d.name})`);
        const refusal = await numberRefusal(c, { _id: d.name, country: d.country }, pool.type, number, { nameOwner: true });
        if (refusal) throw new SeedError(`${d.name}: ${refusal}`);
        numberOwner.set(number, d.name);
      }
    }
  }
  for (const account of fixture.accounts) {
    const names = new Set(account.domains.map((d) => d.name));
    for (const user of account.users) {
      const other = Object.keys(user.alerts ?? {}).find((domain) => !names.has(domain));
      if (other) throw new SeedError(`${user.username}: alerts for ${other}, which is not a domain of the account ${account.name}`);
    }
  }
}
