// A person's name as a form gave it: a `name` or `full_name` field, or its first and last names. For
// what RingTrail writes to them or of them (a CRM's lead, a saved reply's {firstName}).

const named = (fields: Record<string, string>, pattern: RegExp) => Object.entries(fields).find(([name, value]) => pattern.test(name) && value.trim())?.[1].trim() ?? null;

export function nameOf(fields: Record<string, string>): string | null {
  const whole = named(fields, /^(full[ _-]?)?name$/i);
  const parts = [named(fields, /^first[ _-]?name$/i), named(fields, /^(last[ _-]?name|surname)$/i)].filter(Boolean);
  return (whole ?? (parts.length ? parts.join(' ') : null))?.slice(0, 80) ?? null;
}

/** The first name: a first-name field, or the first word of the name. */
export function firstNameOf(fields: Record<string, string>): string | null {
  return named(fields, /^first[ _-]?name$/i)?.slice(0, 40) ?? nameOf(fields)?.split(/\s+/)[0] ?? null;
}
