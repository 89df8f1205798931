// The contract of an upstream embeddings translator: canonical embeddings call -> upstream request,
// upstream body -> canonical result. Pure; errors are classified by the provider's chat adapter table.
import type { EmbeddingsCall, EmbeddingsResult } from '../domain/inference/embeddings.ts'
import type { ProviderSettings, UpstreamRequest } from './provider-adapter.ts'

export interface EmbeddingsAdapter {
  buildRequest(call: EmbeddingsCall, settings: ProviderSettings): UpstreamRequest
  /** Throws GatewayError('upstream_error') when the body is not an embeddings answer. */
  parseResponse(body: unknown, inputCount: number): EmbeddingsResult
}
