#!/usr/bin/env node
// Fails unless the PostgreSQL and Redis named by TEST_DATABASE_URL and TEST_REDIS_URL answer.
import pg from 'pg'
import Redis from 'ioredis'

const problems = []
const databaseUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL
if (!databaseUrl) problems.push('TEST_DATABASE_URL is not set')
if (!redisUrl) problems.push('TEST_REDIS_URL is not set')

if (databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (error) {
    problems.push(`PostgreSQL at ${databaseUrl} is unreachable: ${error.message}`)
  } finally {
    await client.end().catch(() => undefined)
  }
}
if (redisUrl) {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: () => null,
  })
  try {
    await redis.connect()
    await redis.ping()
  } catch (error) {
    problems.push(`Redis at ${redisUrl} is unreachable: ${error.message}`)
  } finally {
    redis.disconnect()
  }
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`check-services: ${problem}`)
  process.exit(1)
}
console.log('check-services: PostgreSQL and Redis answer')
