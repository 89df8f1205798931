// Timestamps as ISO 8601 text, as `Date.prototype.toISOString` writes them, for the hot path: V8 formats
// each one through `snprintf` (a few thousand instructions), and a request stamps a dozen (its record,
// its trace, its reservation, its delivery). The text of the last second seen is kept, so a stamp in the
// same second only appends its milliseconds.

let cachedSecond = Number.NaN
/** `YYYY-MM-DDTHH:MM:SS.` of `cachedSecond`. */
let cachedPrefix = ''

/** `new Date(epochMs).toISOString()`, the same text (and the same RangeError for an invalid time). */
export function isoTime(epochMs: number): string {
  // A Date keeps whole milliseconds, truncated toward zero.
  const millisecond = Math.trunc(epochMs) + 0
  const second = Math.floor(millisecond / 1000)
  if (second !== cachedSecond) {
    const text = new Date(millisecond).toISOString()
    cachedSecond = second
    cachedPrefix = text.slice(0, -4)
    return text
  }
  const within = millisecond - second * 1000
  return `${cachedPrefix}${within < 10 ? '00' : within < 100 ? '0' : ''}${within}Z`
}

let cachedDay = Number.NaN
let cachedDayText = ''

/** The UTC calendar day of `epochMs`, `YYYY-MM-DD` (for the years 0 to 9999); its own cache, as day starts are not now. */
export function isoDay(epochMs: number): string {
  const day = Math.floor((Math.trunc(epochMs) + 0) / 86_400_000)
  if (day !== cachedDay) {
    cachedDayText = new Date(epochMs).toISOString().slice(0, 10)
    cachedDay = day
  }
  return cachedDayText
}
