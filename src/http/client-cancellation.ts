// The cancellation of an HTTP request's work: aborted when the client's connection closes before the
// response has finished (a client that gives up on a long answer or a stream).
import type { FastifyReply } from 'fastify'
import { Cancellation } from '../domain/cancellation.ts'

export function clientCancellation(reply: FastifyReply): Cancellation {
  const cancellation = new Cancellation()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) cancellation.abort()
  })
  return cancellation
}
