// A member's softphone credentials for the SIP edge (issue 82): the pair Kamailio's auth_ephemeral
// (username_format 1) and coturn's use-auth-secret check, computed here as they compute it, valid
// for the configured hours, the same pair on the TURN relays and none on STUN, never cached; one SIP
// user per member, with no e-mail address in it; refused to analysts, and said in words on a server
// without a softphone.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../collector/src/config.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';

const AGENT = { username: 'ana@shop.test', password: 'softphone agent password', role: 'agent', domains: ['shop.test'] };
const OTHER = { username: 'ben@shop.test', password: 'softphone agent password 2', role: 'agent', domains: ['shop.test'] };
const ANALYST = { username: 'al@shop.test', password: 'softphone analyst password', role: 'analyst', domains: ['shop.test'] };
const SECRET = 'the-secret-the-sip-edge-shares-with-ringtrail';
const edge = { wsUri: 'wss://sip.shop.test:8443', domain: 'sip.shop.test', secret: SECRET, ttlSeconds: 4 * 3600, iceUrls: ['stun:turn.shop.test:3478', 'turns:turn.shop.test:5349'] };

describe('softphone credentials', () => {
  const s = useSeededCollector('softphone_credentials', trackingFixture({ users: [AGENT, OTHER, ANALYST] }), { softphone: edge });

  it('gives an agent a pair the edge checks with its secret, for the configured hours, never cached', async () => {
    const agent = await signedInClient(s.collector.baseUrl, AGENT.username, AGENT.password);
    const before = Math.floor(Date.now() / 1000);
    const answer = await agent.call('POST', '/softphone/credentials', {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const c = answer.body;
    expect(c).toMatchObject({ provider: 'sip', wsUri: 'wss://sip.shop.test:8443', sipUri: expect.stringMatching(/^sip:m[0-9a-f]{20}@sip\.shop\.test$/) });
    expect(c.sipUri).not.toContain('ana');
    const [expiry, user] = c.authorizationUser.split(':');
    expect(`sip:${user}@sip.shop.test`).toBe(c.sipUri);
    expect(Number(expiry) - before).toBeGreaterThanOrEqual(4 * 3600);
    expect(Number(expiry) - before).toBeLessThanOrEqual(4 * 3600 + 5);
    expect(new Date(c.expiresAt).getTime()).toBe(Number(expiry) * 1000);
    // As Kamailio's auth_ephemeral and coturn compute it.
    expect(c.password).toBe(createHmac('sha1', SECRET).update(c.authorizationUser).digest('base64'));
    expect(c.iceServers).toEqual([{ urls: 'stun:turn.shop.test:3478' }, { urls: 'turns:turn.shop.test:5349', username: c.authorizationUser, credential: c.password }]);
    // The same member keeps one SIP user; another has their own.
    expect((await agent.call('POST', '/softphone/credentials', {})).body.sipUri).toBe(c.sipUri);
    const other = await signedInClient(s.collector.baseUrl, OTHER.username, OTHER.password);
    expect((await other.call('POST', '/softphone/credentials', {})).body.sipUri).not.toBe(c.sipUri);
  });

  it('refuses an analyst, who takes no calls, and a provider it does not have', async () => {
    const analyst = await signedInClient(s.collector.baseUrl, ANALYST.username, ANALYST.password);
    expect((await analyst.call('POST', '/softphone/credentials', {})).status).toBe(403);
    const agent = await signedInClient(s.collector.baseUrl, AGENT.username, AGENT.password);
    expect((await agent.call('POST', '/softphone/credentials', { provider: 'skype' })).body.error).toContain('provider: must be sip');
  });
});

describe('a server without a softphone', () => {
  const s = useSeededCollector('softphone_off', trackingFixture({ users: [AGENT] }));

  it('says what to set', async () => {
    const agent = await signedInClient(s.collector.baseUrl, AGENT.username, AGENT.password);
    expect(await agent.call('POST', '/softphone/credentials', {})).toMatchObject({ status: 409, body: { error: expect.stringContaining('set SOFTPHONE_WS_URI and SOFTPHONE_SECRET') } });
  });

  it('refuses an address without its secret at start, and reads the edge from the environment', () => {
    expect(() => loadConfig({ SOFTPHONE_WS_URI: 'wss://sip.example.com:8443' })).toThrow('SOFTPHONE_WS_URI and SOFTPHONE_SECRET go together');
    expect(() => loadConfig({ SOFTPHONE_WS_URI: 'https://sip.example.com', SOFTPHONE_SECRET: SECRET })).toThrow('must be a ws:// or wss:// URL');
    expect(loadConfig({ SOFTPHONE_WS_URI: 'wss://sip.example.com:8443', SOFTPHONE_SECRET: SECRET, SOFTPHONE_ICE_SERVERS: 'stun:stun.example.com, turn:turn.example.com:3478' }).softphone).toEqual({ wsUri: 'wss://sip.example.com:8443', domain: 'sip.example.com', secret: SECRET, ttlSeconds: 4 * 3600, iceUrls: ['stun:stun.example.com', 'turn:turn.example.com:3478'] });
  });
});
