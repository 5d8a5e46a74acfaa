// A time zone picked from a list (issue 81): the browser's IANA zones offered as one types, so nobody
// has to know how "America/New_York" is spelt; any zone the browser lacks may still be typed.
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

/** The input of a time zone with its list. */
export function TimeZoneInput({ name = 'timeZone', value }: { name?: string; value: string }) {
  const id = `time-zones-${name}`;
  return (
    <>
      <input name={name} defaultValue={value} list={id} autoComplete="off" spellcheck={false} />
      <datalist id={id}>
        {ZONES.map((zone) => (
          <option value={zone}>{zone.replace(/_/g, ' ')}</option>
        ))}
      </datalist>
    </>
  );
}
