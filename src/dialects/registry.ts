// Every client dialect by name; adding a DialectName without an entry fails to compile.

import { createAnthropicMessagesDialect } from './anthropic-messages/anthropic-messages-dialect.ts'
import type { Dialects } from './dialect.ts'
import { createOpenAiChatDialect } from './openai-chat/openai-chat-dialect.ts'
import { createOpenAiResponsesDialect } from './openai-responses/openai-responses-dialect.ts'

/** Builds the dialects once (each compiles its request schema); main.ts passes the result down. */
export function createDialectRegistry(): Dialects {
  return {
    'openai-responses': createOpenAiResponsesDialect(),
    'openai-chat': createOpenAiChatDialect(),
    'anthropic-messages': createAnthropicMessagesDialect(),
  }
}
