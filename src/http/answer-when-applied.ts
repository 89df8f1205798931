// A write through the API answers once this instance's in-memory caches hold its change: the caches
// (keys, workspaces and their budgets, guardrails, presets, rate-limit rules, private endpoints) follow
// changes announced on the change bus by reading them back from the store, and until that read lands a
// call could still be admitted against the old limit. So every route that writes, except inference's
// own, sends its answer after the bus's handlers have applied every change delivered so far
// (`ChangeBus.applied`). Other instances follow through the change transport as before.
import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify'
import type { RouteAuth } from './route-auth.ts'

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

export function answerWhenApplied(app: FastifyInstance, applied: () => Promise<void>): void {
  const waitForCaches: onSendHookHandler = async (_request, _reply, payload) => {
    await applied()
    return payload
  }
  app.addHook('onRoute', (route: RouteOptions) => {
    const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth
    if (auth === 'inference') return
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.every((method) => readMethods.has(method))) return
    const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]
    route.onSend = [...existing, waitForCaches]
  })
}
