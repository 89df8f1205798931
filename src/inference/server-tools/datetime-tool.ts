// openrouter:datetime — the current date and time from the gateway's clock, in an IANA time zone.
import type { ServerTool } from './server-tool.ts'
import { ServerToolFailure, stringArg } from './server-tool.ts'

export const datetimeTool: ServerTool = {
  description:
    'Get the current date and time. Optionally pass an IANA time zone such as "Europe/Paris" (default UTC, or the one the request configured).',
  parameters: {
    type: 'object',
    properties: { timezone: { type: 'string', description: 'IANA time zone name, e.g. America/New_York' } },
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const timezone =
      stringArg(args, 'timezone') ??
      (typeof context.requestSettings.timezone === 'string' ? context.requestSettings.timezone : 'UTC')
    const now = context.clock.now()
    const datetime = formatInZone(now, timezone)
    return { output: JSON.stringify({ datetime, timezone, iso_utc: now.toISOString() }), item: { datetime, timezone } }
  },
}

/** `YYYY-MM-DDTHH:mm:ss±HH:MM` in the zone; a zone Intl does not know is the model's error to fix. */
export function formatInZone(date: Date, timezone: string): string {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    }).formatToParts(date)
  } catch {
    throw new ServerToolFailure(`unknown time zone "${timezone}"; use an IANA name such as "UTC" or "Europe/Paris"`, {
      timezone,
      datetime: '',
    })
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? ''
  const offset = part('timeZoneName').replace('GMT', '') || '+00:00'
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}${offset}`
}
