// A member's credentials for the SIP edge (issue 82): the browser's softphone registers over
// WebSocket with a username and password RingTrail makes for a few hours, the edge checking them
// with the secret it shares, and nothing stored anywhere. The scheme is the "TURN REST API" one that
// Kamailio's auth_ephemeral module (username_format 1) and coturn's use-auth-secret both check:
// username `<expiry, Unix seconds>:<user>`, password base64(HMAC-SHA1(secret, username)). The TURN
// servers given take the same pair, so one secret serves the edge and the relay.
import { createHash, createHmac } from 'node:crypto';

export interface SipEdge {
  /** Where browsers reach the edge's WebSocket (SOFTPHONE_WS_URI): `wss://sip.example.com:8443`. */
  wsUri: string;
  /** The SIP domain of members' addresses (SOFTPHONE_SIP_DOMAIN): `sip:<user>@<domain>`. */
  domain: string;
  /** The secret the edge (and the TURN relay) shares (SOFTPHONE_SECRET). */
  secret: string;
  /** How long credentials last (SOFTPHONE_TTL_HOURS). */
  ttlSeconds: number;
  /** STUN and TURN servers (SOFTPHONE_ICE_SERVERS): `stun:`, `turn:` and `turns:` URLs. */
  iceUrls: string[];
}

export interface SipCredentials {
  provider: 'sip';
  wsUri: string;
  sipUri: string;
  authorizationUser: string;
  password: string;
  iceServers: { urls: string; username?: string; credential?: string }[];
  expiresAt: string;
}

/** A member's SIP user: stable, and no e-mail address in the edge's logs or the SIP messages. */
export const sipUserOf = (username: string) => `m${createHash('sha256').update(username.toLowerCase()).digest('hex').slice(0, 20)}`;

/** The pair the edge checks: `<expiry>:<user>`, and its HMAC-SHA1 under the shared secret. */
export function ephemeralPair(secret: string, user: string, expiresAtSeconds: number): { username: string; password: string } {
  const username = `${expiresAtSeconds}:${user}`;
  return { username, password: createHmac('sha1', secret).update(username).digest('base64') };
}

export function sipCredentials(edge: SipEdge, member: string, now = new Date()): SipCredentials {
  const expires = Math.floor(now.getTime() / 1000) + edge.ttlSeconds;
  const user = sipUserOf(member);
  const { username, password } = ephemeralPair(edge.secret, user, expires);
  return {
    provider: 'sip',
    wsUri: edge.wsUri,
    sipUri: `sip:${user}@${edge.domain}`,
    authorizationUser: username,
    password,
    // A STUN server takes no credentials; a TURN relay the same pair.
    iceServers: edge.iceUrls.map((urls) => (urls.startsWith('stun:') ? { urls } : { urls, username, credential: password })),
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}
