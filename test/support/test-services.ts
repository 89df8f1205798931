// Where the optional PostgreSQL and Redis suites find their servers. Without the variables the suites
// are skipped locally; under CI=true a missing or unreachable service fails the run instead.

export interface ServiceTarget {
  /** The URL to use, or undefined when the suite must skip. */
  readonly url: string | undefined
  /** Passed to node:test's `skip` option: false, or the reason the suite is skipped. */
  readonly skip: string | false
}

function target(variable: 'TEST_DATABASE_URL' | 'TEST_REDIS_URL'): ServiceTarget {
  const url = process.env[variable]
  if (url !== undefined && url !== '') return { url, skip: false }
  if (process.env.CI === 'true') {
    throw new Error(
      `${variable} must be set when CI=true: the ${variable === 'TEST_DATABASE_URL' ? 'PostgreSQL' : 'Redis'} suites may not be skipped in CI`,
    )
  }
  return { url: undefined, skip: `${variable} is not set` }
}

export const postgresTarget = (): ServiceTarget => target('TEST_DATABASE_URL')
export const redisTarget = (): ServiceTarget => target('TEST_REDIS_URL')
