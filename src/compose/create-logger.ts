// The gateway's logger: pino at the configured level, with credentials and secret values redacted.
import pino, { type Logger } from 'pino'
import type { Config } from '../config/config.ts'

export function createLogger(config: Config): Logger {
  return pino({
    level: config.log_level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'headers.authorization',
        '*.api_key',
        '*.apiKey',
        '*.secret',
        '*.password',
        '*.value',
      ],
      censor: '[redacted]',
    },
  })
}
