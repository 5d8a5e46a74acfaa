// Each family's parameter parser, given arbitrary fields (the strings, lists and nested objects a
// form or a JSON body can carry), either parses them or refuses them with the family's own
// failure, which its envelope answers. Never another error: that would be a 500.
import fc from 'fast-check';
import {
  agentStatsRequest,
  browserClickRequest,
  browserExpirationRequest,
  browserViewRequest,
  callReport,
  callStartRequest,
  cartRequest,
  deliveryLogRequest,
  offlineListRequest,
  offlineRequest,
  orderRequest,
  ospClickRequest,
  ospExpirationRequest,
  ospViewRequest,
  parseBracketProducts,
  parseJsonProducts,
  routeQuery,
  setAgentRequest,
  smsReport,
} from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import type { ZodObject } from 'zod';
import { parseDataRequest } from '../../collector/src/data/request.ts';
import { AgentFailure, parseAgentParams } from '../../collector/src/http/agent-envelope.ts';
import { CommerceFailure, parseCommerceParams } from '../../collector/src/http/commerce-envelope.ts';
import { DataFailure } from '../../collector/src/http/data-envelope.ts';
import { ManageFailure } from '../../collector/src/http/manage-envelope.ts';
import { OfflineFailure, parseOfflineParams } from '../../collector/src/http/offline-envelope.ts';
import { parseTelephonyParams, TelephonyFailure } from '../../collector/src/http/telephony-envelope.ts';
import { parseTrackingParams } from '../../collector/src/http/tracking-envelope.ts';
import { domainSettings } from '../../collector/src/domains/settings.ts';
import { valid } from '../../collector/src/manage/validate.ts';
import { reportRange } from '../../collector/src/reports/day-range.ts';
import { TrackingFailure } from '../../collector/src/tracking/failure.ts';

/** Values shaped like what the parsers expect, and not quite. */
const value = fc.oneof(
  fc.string(),
  fc.constantFrom('', '0', '-1', '1', 'true', 'anonymous', '0000-00-00', '2026-02-30', '2026-13-45 25:61:61', '9999-12-31 23:59:59', '0123456789', '+33 1 23 45 67 89', 'NaN', '1e999', 'http://x', '{"a":1}', '[{"id":"x"}]'),
  fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString().slice(0, 19).replace('T', ' '))),
  fc.integer().map(String),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 3 }),
);

/** The schema's own field names, some left out, and a few unknown ones. */
const fieldsOf = (names: string[]) => fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 })), value, { maxKeys: names.length + 2 });

function neverThrowsOtherwise(names: string[], parse: (raw: Record<string, unknown>) => unknown, failure: new (...args: never[]) => Error): void {
  fc.assert(
    fc.property(fieldsOf(names), (raw) => {
      try {
        parse(raw);
      } catch (err) {
        expect(err, `${(err as Error).message} for ${JSON.stringify(raw)}`).toBeInstanceOf(failure);
      }
    }),
    { numRuns: 400 },
  );
}

const keys = (schema: ZodObject) => Object.keys(schema.shape);

describe('parameter parsers under arbitrary fields', () => {
  it('call tracking and the browser doors answer a tracking status', () => {
    for (const schema of [ospViewRequest, ospClickRequest, ospExpirationRequest, browserViewRequest, browserClickRequest, browserExpirationRequest] as ZodObject[]) {
      neverThrowsOtherwise(keys(schema), (raw) => parseTrackingParams(schema, raw), TrackingFailure);
    }
  });

  it('offline numbers answer status error', () => {
    for (const schema of [offlineRequest, offlineListRequest] as ZodObject[]) neverThrowsOtherwise(keys(schema), (raw) => parseOfflineParams(schema, raw), OfflineFailure);
  });

  it('the data API answers ERROR with its problems', () => {
    neverThrowsOtherwise(['type', 'start_date', 'end_date', 'page', 'limit', 'group_by_day', 'phone', 'tracking_phone', 'caller_phone', 'status', 'offline_phone_description'], parseDataRequest, DataFailure);
  });

  it('carts and orders answer status error, and their products parse or are refused', () => {
    for (const schema of [cartRequest, orderRequest] as ZodObject[]) neverThrowsOtherwise(keys(schema), (raw) => parseCommerceParams(schema, raw), CommerceFailure);
    fc.assert(fc.property(value, (products) => void parseBracketProducts(products)));
    fc.assert(fc.property(fc.string(), (products) => void parseJsonProducts(products)));
  });

  it('the agent API answers NOK', () => {
    for (const schema of [callStartRequest, setAgentRequest, agentStatsRequest, deliveryLogRequest] as ZodObject[]) neverThrowsOtherwise(keys(schema), (raw) => parseAgentParams(schema, raw), AgentFailure);
  });

  it('telephony answers ERROR', () => {
    for (const schema of [callReport, smsReport, routeQuery] as ZodObject[]) neverThrowsOtherwise(keys(schema), (raw) => parseTelephonyParams(schema, raw), TelephonyFailure);
  });

  it("the back end's settings and report ranges answer an error", () => {
    neverThrowsOtherwise(keys(domainSettings), (raw) => valid(domainSettings.partial().strict(), raw), ManageFailure);
    neverThrowsOtherwise(['from', 'to'], (raw) => reportRange(raw, 'Europe/Paris'), ManageFailure);
  });
});
