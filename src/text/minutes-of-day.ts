/** A time of day `HH:MM` (`24:00` allowed) as minutes after midnight. Pure. */
export function minutesOfDay(hhmm: string): number {
  const [h = "0", m = "0"] = hhmm.split(":");
  return Number(h) * 60 + Number(m);
}
