// Canonical result -> the Response object of a non-streaming POST /responses.

import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { EncodeContext } from '../dialect.ts'
import { buildResponseObject, encodeOutputItem, outcomeOf } from './response-object.ts'

export function encodeResponsesResult(result: CanonicalResult, context: EncodeContext): Record<string, unknown> {
  return buildResponseObject(
    {
      output: result.output.map((item, index) => encodeOutputItem(item, index, context.generationId)),
      outcome: outcomeOf(result.finish_reason, context.incompleteReason),
      usage: result.usage,
      costUsd: context.costUsd,
      completedAt: context.completedAt ?? context.createdAt,
      metadata: context.metadata,
    },
    context,
  )
}
