// Popular models of the built-in providers with their public list prices (USD per token, decimal
// strings). Local servers (Ollama, vLLM) have no built-in models: declare them in YAML with a price
// (which may be "0"). Prices change: override any entry in YAML with the same model slug.
import type { PricingText } from '../../domain/money.ts'

export interface BuiltinModel {
  readonly slug: string
  readonly name: string
  readonly kind: 'text' | 'embedding'
  readonly contextLength: number
  readonly maxOutputTokens: number | null
  readonly provider: string
  readonly upstreamModelId: string
  readonly pricing: PricingText
}

const text = (slug: string, name: string, provider: string, upstreamModelId: string, contextLength: number, maxOutputTokens: number, prompt: string, completion: string, cached?: string): BuiltinModel => ({
  slug, name, kind: 'text', contextLength, maxOutputTokens, provider, upstreamModelId,
  pricing: cached === undefined ? { prompt, completion } : { prompt, completion, input_cache_read: cached },
})

const embedding = (slug: string, name: string, provider: string, upstreamModelId: string, contextLength: number, prompt: string): BuiltinModel => ({
  slug, name, kind: 'embedding', contextLength, maxOutputTokens: null, provider, upstreamModelId, pricing: { prompt, completion: '0' },
})

export const builtinModels: readonly BuiltinModel[] = [
  text('openai/gpt-4o', 'OpenAI: GPT-4o', 'openai', 'gpt-4o', 128000, 16384, '0.0000025', '0.00001', '0.00000125'),
  text('openai/gpt-4o-mini', 'OpenAI: GPT-4o-mini', 'openai', 'gpt-4o-mini', 128000, 16384, '0.00000015', '0.0000006', '0.000000075'),
  text('openai/gpt-4.1', 'OpenAI: GPT-4.1', 'openai', 'gpt-4.1', 1047576, 32768, '0.000002', '0.000008', '0.0000005'),
  text('openai/gpt-4.1-mini', 'OpenAI: GPT-4.1 Mini', 'openai', 'gpt-4.1-mini', 1047576, 32768, '0.0000004', '0.0000016', '0.0000001'),
  text('openai/o4-mini', 'OpenAI: o4 Mini', 'openai', 'o4-mini', 200000, 100000, '0.0000011', '0.0000044', '0.000000275'),
  embedding('openai/text-embedding-3-small', 'OpenAI: Text Embedding 3 Small', 'openai', 'text-embedding-3-small', 8192, '0.00000002'),
  embedding('openai/text-embedding-3-large', 'OpenAI: Text Embedding 3 Large', 'openai', 'text-embedding-3-large', 8192, '0.00000013'),
  text('anthropic/claude-sonnet-4', 'Anthropic: Claude Sonnet 4', 'anthropic', 'claude-sonnet-4-20250514', 200000, 64000, '0.000003', '0.000015', '0.0000003'),
  text('anthropic/claude-opus-4', 'Anthropic: Claude Opus 4', 'anthropic', 'claude-opus-4-20250514', 200000, 32000, '0.000015', '0.000075', '0.0000015'),
  text('anthropic/claude-3.5-haiku', 'Anthropic: Claude 3.5 Haiku', 'anthropic', 'claude-3-5-haiku-20241022', 200000, 8192, '0.0000008', '0.000004', '0.00000008'),
  text('google/gemini-2.5-pro', 'Google: Gemini 2.5 Pro', 'google-ai-studio', 'gemini-2.5-pro', 1048576, 65536, '0.00000125', '0.00001', '0.00000031'),
  text('google/gemini-2.5-flash', 'Google: Gemini 2.5 Flash', 'google-ai-studio', 'gemini-2.5-flash', 1048576, 65535, '0.0000003', '0.0000025', '0.000000075'),
  embedding('google/gemini-embedding-001', 'Google: Gemini Embedding 001', 'google-ai-studio', 'gemini-embedding-001', 2048, '0.00000015'),
  text('meta-llama/llama-3.3-70b-instruct', 'Meta: Llama 3.3 70B Instruct', 'groq', 'llama-3.3-70b-versatile', 131072, 32768, '0.00000059', '0.00000079'),
  text('meta-llama/llama-3.1-8b-instruct', 'Meta: Llama 3.1 8B Instruct', 'groq', 'llama-3.1-8b-instant', 131072, 8192, '0.00000005', '0.00000008'),
  text('mistralai/mistral-large', 'Mistral: Mistral Large', 'mistral', 'mistral-large-latest', 131072, 131072, '0.000002', '0.000006'),
  text('mistralai/mistral-small', 'Mistral: Mistral Small', 'mistral', 'mistral-small-latest', 131072, 131072, '0.0000001', '0.0000003'),
  text('deepseek/deepseek-chat', 'DeepSeek: DeepSeek V3', 'deepseek', 'deepseek-chat', 65536, 8192, '0.00000027', '0.0000011', '0.00000007'),
  text('deepseek/deepseek-r1', 'DeepSeek: R1', 'deepseek', 'deepseek-reasoner', 65536, 32768, '0.00000055', '0.00000219', '0.00000014'),
  text('x-ai/grok-3', 'xAI: Grok 3', 'xai', 'grok-3', 131072, 131072, '0.000003', '0.000015', '0.00000075'),
  text('qwen/qwen-2.5-72b-instruct', 'Qwen2.5 72B Instruct', 'together', 'Qwen/Qwen2.5-72B-Instruct-Turbo', 32768, 8192, '0.0000012', '0.0000012'),
]
