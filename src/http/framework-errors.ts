// Router-level failures that happen before any route or hook runs (a path that does not percent-decode
// to well-formed UTF-8, such as an encoded lone surrogate `%ED%A0%80`; a path segment longer than the
// router accepts). Fastify answers them with its own body unless given this handler; here they get the
// error envelope like every other failure.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { GatewayError } from '../domain/errors.ts'
import { sendError } from './error-handler.ts'

/** Longest raw (percent-encoded) path parameter: 512 code points of 4 UTF-8 bytes, 3 characters each. */
export const maxPathParamLength = 8192

export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(
      reply,
      new GatewayError(
        'invalid_request',
        'The URL path is malformed: every percent-encoded sequence must decode to well-formed UTF-8 (lone surrogates such as %ED%A0%80 are refused)',
      ),
    )
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(
      reply,
      new GatewayError(
        'invalid_request',
        `A URL path segment is too long: at most ${maxPathParamLength} characters once percent-encoded`,
      ),
    )
  }
  return sendError(reply, new GatewayError('invalid_request', error.message))
}
