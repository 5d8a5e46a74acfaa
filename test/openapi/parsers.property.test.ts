// Each family's parameter parser, given arbitrary fields (the strings, lists and nested objects a
// form or a JSON body can carry), either parses them or refuses them with the family's own
// failure, which its envelope answers. Never another error: that would be a 500.
import fc from 'fast-check';
import { parseBracketProducts, parseJsonProducts } from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import type { ZodObject, ZodType } from 'zod';
import { parseDataRequest } from '../../collector/src/data/request.ts';
import { AgentFailure, parseAgentParams } from '../../collector/src/http/agent-envelope.ts';
import { CommerceFailure, parseCommerceParams } from '../../collector/src/http/commerce-envelope.ts';
import { DataFailure } from '../../collector/src/http/data-envelope.ts';
import { ManageFailure } from '../../collector/src/http/manage-envelope.ts';
import { OfflineFailure, parseOfflineParams } from '../../collector/src/http/offline-envelope.ts';
import { parseTelephonyParams, TelephonyFailure } from '../../collector/src/http/telephony-envelope.ts';
import { parseTrackingParams } from '../../collector/src/http/tracking-envelope.ts';
import { valid } from '../../collector/src/http/manage-validate.ts';
import { OPERATIONS, TAGS } from '../../collector/src/openapi/operations.ts';
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

/** Each family's parser of the fields of a request, and the failure its envelope answers. */
const PARSERS: Record<string, [(schema: ZodType, raw: Record<string, unknown>) => unknown, new (...args: never[]) => Error]> = {
  [TAGS.tracking]: [parseTrackingParams, TrackingFailure],
  [TAGS.browser]: [parseTrackingParams, TrackingFailure],
  [TAGS.offline]: [parseOfflineParams, OfflineFailure],
  [TAGS.commerce]: [parseCommerceParams, CommerceFailure],
  [TAGS.agent]: [parseAgentParams, AgentFailure],
  [TAGS.telephony]: [parseTelephonyParams, TelephonyFailure],
  [TAGS.manage]: [valid, ManageFailure],
};

describe('parameter parsers under arbitrary fields', () => {
  // Every operation of the API description whose fields a family's parser checks with its schema.
  const checked = OPERATIONS.flatMap((op) => {
    const schema = (op.body ?? op.query) as ZodObject | undefined;
    const parser = PARSERS[op.tag];
    return schema && 'shape' in schema && parser && op.path !== '/data-api' && !op.path.startsWith('/telephony/twilio') && Object.keys(schema.shape).length ? [{ op, schema, parser }] : [];
  });

  it('covers the operations of every family', () => {
    expect(new Set(checked.map((c) => c.op.tag))).toEqual(new Set(Object.keys(PARSERS)));
  });

  for (const { op, schema, parser } of checked) {
    it(`${op.method.toUpperCase()} ${op.path} answers its family's failure`, () => {
      const [parse, failure] = parser;
      neverThrowsOtherwise(keys(schema), (raw) => parse(schema, raw), failure);
    });
  }

  it('the data API answers ERROR with its problems', () => {
    neverThrowsOtherwise(['type', 'start_date', 'end_date', 'page', 'limit', 'group_by_day', 'phone', 'tracking_phone', 'caller_phone', 'status', 'offline_phone_description'], parseDataRequest, DataFailure);
  });

  it('products parse or are refused', () => {
    fc.assert(fc.property(value, (products) => void parseBracketProducts(products)));
    fc.assert(fc.property(fc.string(), (products) => void parseJsonProducts(products)));
  });

  it("the back end's report ranges answer an error", () => {
    neverThrowsOtherwise(['from', 'to'], (raw) => reportRange(raw, 'Europe/Paris'), ManageFailure);
  });
});
