// A call flow as a person writes it (`POST/PUT …/flows`, the fixture's `callFlows`): named steps,
// each of one kind, pointing at the next steps by their names; `start` is the first. Checked field
// by field here (zod), then as a whole in flow-checks.ts (every step named exists and is reached,
// no loop, at most MAX_DEPTH steps on any way through). Numbers are read in the domain's country.
import { HH_MM, WEEK_DAYS } from '@ringtrail/shared';
import { z } from 'zod';
import { phoneIn } from '../domains/settings.ts';
import { ownEntry } from '../own-entry.ts';

export const MAX_STEPS = 50;
export const MAX_DEPTH = 10;
export const MAX_TARGETS = 20;
export const RING_SECONDS = { min: 5, max: 120, default: 20 } as const;
export const MENU_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export const RING_STRATEGIES = ['simultaneous', 'sequential', 'round-robin'] as const;
export const STEP_KINDS = ['schedule', 'menu', 'ring', 'route', 'voicemail', 'forward', 'say', 'hangup'] as const;

export const stepName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, dashes or underscores, starting with a letter or digit');
const label = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
/** A step's name as a person gives it ("Sales team"): the call page, the calls log and the overview say it; absent: its key. */
const stepLabel = { name: label.optional().describe('The name a person gave the step ("Sales team"), shown where the call\'s path is') };
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day, YYYY-MM-DD');

/** What a caller hears: a text read in the domain's language, or an uploaded audio file (GridFS). */
export const prompt = z
  .object({
    text: z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters').optional().describe("Read to the caller in the domain's language"),
    audio: z.string().regex(/^[a-f0-9]{24}$/, 'must be the id of an uploaded audio file').optional().describe('An uploaded audio file, played instead'),
  })
  .strict()
  .refine((p) => (p.text === undefined) !== (p.audio === undefined), 'needs a text or an audio file (one of them)');

const range = z
  .object({ from: z.string().regex(HH_MM, 'must be HH:MM').describe('Opens at, HH:MM'), to: z.string().regex(HH_MM, 'must be HH:MM').describe('Closes at, HH:MM (24:00: midnight)') })
  .strict()
  .refine((r) => r.from < r.to, { message: 'must end after it starts', path: ['to'] });

const week = z.object(Object.fromEntries(WEEK_DAYS.map((d) => [d, z.array(range).max(4, 'at most 4 ranges a day').default([])])) as Record<(typeof WEEK_DAYS)[number], z.ZodDefault<z.ZodArray<typeof range>>>).strict();

/** Opening hours per weekday, in the domain's time zone (a day without ranges is closed), and days
 * closed whatever the week says: single dates, and named closures over several days. A schedule step's,
 * and a text back's texting hours. */
export const openingHours = {
  week,
  holidays: z.array(z.object({ from: day.describe('The first day closed, YYYY-MM-DD'), to: day.optional().describe('The last day closed (a closure over several days)'), name: label.optional().describe('Christmas, Inventory') }).strict().refine((h) => !h.to || h.from <= h.to, { message: 'must not end before it starts', path: ['to'] })).max(100, 'at most 100 holidays').default([]),
};

const schedule = z
  .object({
    ...stepLabel,
    kind: z.literal('schedule').describe('Open or closed by opening hours'),
    ...openingHours,
    open: stepName.describe('The step while open'),
    closed: stepName.describe('The step while closed'),
  })
  .strict();

const menu = z
  .object({
    ...stepLabel,
    kind: z.literal('menu').describe('Press a key'),
    prompt,
    options: z
      .array(z.object({ key: z.enum(MENU_KEYS, { error: 'must be a key of the keypad: 0 to 9, * or #' }).describe('The key pressed'), label: label.describe('Sales, Support: what the calls log and path say'), word: z.string().trim().min(1).max(40, 'must be at most 40 characters').optional().describe('A word the caller may say instead, where the carrier hears speech'), next: stepName.describe('The step it leads to') }).strict())
      .min(1, 'needs an option')
      .max(12, 'at most 12 options'),
    /** Seconds the caller has to press a key. */
    timeoutSeconds: z.number().int('must be whole seconds').min(1, 'must be 1 to 30 seconds').max(30, 'must be 1 to 30 seconds').default(5),
    /** How many times the prompt is played again after no key or a key of no option, before `default`. */
    repeats: z.number().int().min(0, 'must be 0 to 5').max(5, 'must be 0 to 5').default(2),
    /** Said before the prompt is played again after a key of no option. */
    invalidText: z.string().trim().min(1).max(300, 'must be at most 300 characters').optional(),
    default: stepName.describe('The step after no key, or a key of no option, once the repeats are used'),
  })
  .strict();

const ringTargetIn = (country: string) =>
  z.union([
    z.object({ member: z.string().trim().toLowerCase().min(1, 'must name a member').max(254).describe("A member of the account (their username), rung at their own phone"), weight: z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').default(1).describe('Round robin: their share of first rings') }).strict(),
    z.object({ number: phoneIn(country).describe('A plain number'), name: label.optional().describe('Its name in the path and the calls log'), weight: z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').default(1).describe('Round robin: its share of first rings') }).strict(),
  ], { error: 'must be {member} (a member of the account) or {number}' });

const ringIn = (country: string) =>
  z
    .object({
    ...stepLabel,
      kind: z.literal('ring').describe('A ring group'),
      targets: z.array(ringTargetIn(country).describe('A member or a number')).min(1, 'needs a target').max(MAX_TARGETS, `at most ${MAX_TARGETS} targets`),
      strategy: z.enum(RING_STRATEGIES, { error: `must be one of ${RING_STRATEGIES.join(', ')}` }).describe('All at once, in the order written, or in turn by weight'),
      /** Seconds each target rings (all of them at once with `simultaneous`). */
      ringSeconds: z.number().int('must be whole seconds').min(RING_SECONDS.min, `must be ${RING_SECONDS.min} to ${RING_SECONDS.max} seconds`).max(RING_SECONDS.max, `must be ${RING_SECONDS.min} to ${RING_SECONDS.max} seconds`).default(RING_SECONDS.default),
      /** A caller who called before rings first whoever last answered them, within these days. */
      stickyDays: z.number().int().min(1, 'must be 1 to 365 days').max(365, 'must be 1 to 365 days').optional(),
      noAnswer: stepName.describe('The step when nobody answers'),
    })
    .strict();

const routeWhen = z
  .object({
    callerCountry: z.string().describe("The caller's country, two letters").regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code').transform((v) => v.toUpperCase()).optional(),
    callerArea: z.string().regex(/^\d{1,8}$/, 'must be 1 to 8 digits of the national number').optional().describe("The caller's national number starts with these digits"),
    caller: z.enum(['first-time', 'returning'], { error: 'must be first-time or returning' }).optional().describe('Never called before, or did'),
    blocked: z.boolean({ error: 'must be true or false' }).optional().describe('On the blocklist (such callers reach the flow only when it routes by this)'),
    sourceClass: z.string().trim().toLowerCase().min(1).max(40).optional().describe('The visit that led to the call came from: paid, organic, social, referral, direct'),
    campaign: z.string().trim().toLowerCase().min(1).max(200).optional().describe("That visit's utm_campaign"),
  })
  .strict()
  .refine((w) => Object.keys(w).length > 0, 'needs a condition');

const route = z
  .object({
    ...stepLabel,
    kind: z.literal('route').describe('Branches by the caller or the visit'),
    branches: z.array(z.object({ when: routeWhen.describe('Every condition holds'), next: stepName.describe('The step it leads to') }).strict()).min(1, 'needs a branch').max(20, 'at most 20 branches'),
    default: stepName.describe('The step when no branch matches'),
  })
  .strict();

const voicemail = z
  .object({
    ...stepLabel,
    kind: z.literal('voicemail').describe('A greeting, then the message recorded as the call\'s recording'),
    /** Absent: a greeting in the domain's language. */
    greeting: prompt.optional(),
    maxSeconds: z.number().int().min(5, 'must be 5 to 300 seconds').max(300, 'must be 5 to 300 seconds').default(120).describe('The longest message'),
  })
  .strict();

/** Today's behaviour: the number's destination (or `number`), the domain's no-answer redirect, whisper and recording. */
const forwardIn = (country: string) => z.object({
    ...stepLabel, kind: z.literal('forward').describe("Today's forward"), number: phoneIn(country).optional().describe("Absent: the number's destination") }).strict();
const say = z.object({
    ...stepLabel, kind: z.literal('say').describe('Say something'), prompt, next: stepName.optional().describe('Then this step; absent: hang up') }).strict();
const hangup = z.object({
    ...stepLabel, kind: z.literal('hangup').describe('End the call') }).strict();

export const stepIn = (country: string) =>
  z.discriminatedUnion('kind', [schedule, menu, ringIn(country), route, voicemail, forwardIn(country), say, hangup], { error: `must be a step of a known kind: ${STEP_KINDS.join(', ')}` });

/** The numbers that use the flow: the domain as a whole (every number no other flow names), whole
 * pools (by type), single numbers (online or offline); the most precise wins. */
const assignedToIn = (country: string) =>
  z
    .object({
      domain: z.boolean({ error: 'must be true or false' }).default(false).describe('Every number of the domain no other flow names'),
      pools: z.array(z.number({ error: 'must be a pool type' }).int('must be a pool type')).max(50, 'at most 50 pools').default([]).describe('Whole pools, by type'),
      numbers: z.array(phoneIn(country)).max(500, 'at most 500 numbers').default([]).describe('Single numbers, online or offline'),
    })
    .strict();

export const NOT_ASSIGNED = { domain: false, pools: [], numbers: [] };

export const flowBodyIn = (country: string) =>
  z
    .object({
      name: label.describe('Main line, Sales team'),
      start: stepName.describe('The first step'),
      steps: z.record(stepName, stepIn(country)).describe('The steps by name: schedule, menu, ring, route, voicemail, forward, say, hangup').refine((steps) => Object.keys(steps).length <= MAX_STEPS, `at most ${MAX_STEPS} steps`),
      assignedTo: assignedToIn(country).default(NOT_ASSIGNED).describe('The numbers that use the flow'),
    })
    .strict();

export type FlowBody = z.infer<ReturnType<typeof flowBodyIn>>;
export type FlowStep = FlowBody['steps'][string];
export type StepKind = FlowStep['kind'];

/** Every number a flow dials itself (plain ring targets, forwards), named by its field, for the
 * account's dialling rules (dialling/): a member's phone is checked where they set it. */
export function dialledNumbersOf(steps: FlowBody['steps']): { field: string; number: string }[] {
  return Object.entries(steps).flatMap(([name, step]) => {
    if (step.kind === 'ring') return step.targets.flatMap((t, i) => ('number' in t ? [{ field: `steps.${name}.targets.${i}.number`, number: t.number }] : []));
    if (step.kind === 'forward' && step.number) return [{ field: `steps.${name}.number`, number: step.number }];
    return [];
  });
}

/** The step of this name, or undefined: only the flow's own steps, so a name that `Object.prototype`
 * also has (`constructor`, `toString`) is a plain name like any other (issue 79). */
export function stepNamed(steps: FlowBody['steps'], name: string): FlowStep | undefined {
  return ownEntry(steps, name);
}
