// The contract of an upstream embeddings translator: canonical embeddings call -> upstream request,
// upstream body -> canonical result. Pure; errors are classified by the provider's chat adapter table.
import type { EmbeddingsCall, EmbeddingsResult } from '../domain/inference/embeddings.ts'
import type { ProviderSettings, UpstreamRequest } from './provider-adapter.ts'

export interface EmbeddingsAdapter {
  buildRequest(call: EmbeddingsCall, settings: ProviderSettings): UpstreamRequest
  /**
   * Reads the answer's body text. Throws a SyntaxError when it is not JSON, GatewayError('upstream_error')
   * when it is not an embeddings answer.
   */
  parseResponse(text: string, inputCount: number): EmbeddingsResult
}
