// The onRequest hook (registered after authentication) that counts each authenticated request against
// its key's and organization's request budget, or the management budget, and sends X-RateLimit-*.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RateLimitPolicy } from './rate-limit-policy.ts'

export function createRateLimitHook(policy: RateLimitPolicy) {
  return async function limitRequests(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = request.principal
    if (principal === null) return
    const headers = await policy.admitRequest(principal.key)
    if (Object.keys(headers).length > 0) reply.headers(headers)
  }
}
