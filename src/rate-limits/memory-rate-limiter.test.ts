import { MemoryRateLimiter } from './memory-rate-limiter.ts'
import { runRateLimiterContract } from './rate-limiter.contract.ts'

runRateLimiterContract('memory', async (clock) => ({ limiter: new MemoryRateLimiter(clock), close: async () => {} }))
