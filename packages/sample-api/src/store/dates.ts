/** The vendor is Dutch: order dates carry the Amsterdam offset, as its documentation shows. */
const AMSTERDAM = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Amsterdam',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

const DAY_MS = 86_400_000;

/** `2024-05-13T10:00:00+02:00`: ISO 8601 with the Amsterdam offset. */
export function isoDateTime(ms: number): string {
  const part: Record<string, string> = {};
  for (const { type, value } of AMSTERDAM.formatToParts(new Date(ms))) part[type] = value;
  const zone = (part.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${zone}`;
}

/** `days` working days (Monday to Friday) after `ms`. */
export function addWorkingDays(ms: number, days: number): number {
  let out = ms;
  for (let left = days; left > 0; ) {
    out += DAY_MS;
    const weekday = new Date(out).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return out;
}

export const daysBefore = (ms: number, days: number): number => ms - days * DAY_MS;
