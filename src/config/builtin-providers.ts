// Providers enabled by their environment variables. Each is an ordinary provider entry: YAML may
// override any of them by declaring a provider with the same slug.
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import type { DataRegion } from '../domain/catalog.ts'
import { cloudPresets } from './cloud-presets.ts'

export interface BuiltinProvider {
  readonly slug: string
  readonly name: string
  readonly api: ProviderApi
  /** The variable holding the API key (hosted providers) or the base URL (local servers). */
  readonly variable: string
  readonly baseUrl: string | null
  readonly dataCollection: 'allow' | 'deny'
  readonly zdr: boolean
  readonly region: DataRegion
  /** Cloud presets: base URL, key and options from several variables; null when they do not suffice. */
  readonly fromEnv?: (env: Readonly<Record<string, string>>) => PresetSettings | null
}

export interface PresetSettings {
  readonly baseUrl: string
  readonly apiKey: string | null
  readonly options: Readonly<Record<string, string>>
}

/** Whether the environment enables a preset: its variable is set, and a cloud preset finds what it needs. */
export function presetEnabled(preset: BuiltinProvider, env: Readonly<Record<string, string>>): boolean {
  return preset.variable in env && (preset.fromEnv === undefined || preset.fromEnv(env) !== null)
}

const hosted = (slug: string, name: string, api: ProviderApi, variable: string, baseUrl: string): BuiltinProvider => ({
  slug,
  name,
  api,
  variable,
  baseUrl,
  dataCollection: 'deny',
  zdr: false,
  region: 'global',
})

export const builtinProviders: readonly BuiltinProvider[] = [
  hosted('openai', 'OpenAI', 'openai-responses', 'OPENAI_API_KEY', 'https://api.openai.com/v1'),
  hosted('anthropic', 'Anthropic', 'anthropic', 'ANTHROPIC_API_KEY', 'https://api.anthropic.com'),
  hosted(
    'google-ai-studio',
    'Google AI Studio',
    'gemini',
    'GEMINI_API_KEY',
    'https://generativelanguage.googleapis.com',
  ),
  hosted('groq', 'Groq', 'openai-chat', 'GROQ_API_KEY', 'https://api.groq.com/openai/v1'),
  hosted('mistral', 'Mistral', 'openai-chat', 'MISTRAL_API_KEY', 'https://api.mistral.ai/v1'),
  hosted('deepseek', 'DeepSeek', 'openai-chat', 'DEEPSEEK_API_KEY', 'https://api.deepseek.com/v1'),
  hosted('together', 'Together', 'openai-chat', 'TOGETHER_API_KEY', 'https://api.together.xyz/v1'),
  hosted('xai', 'xAI', 'openai-chat', 'XAI_API_KEY', 'https://api.x.ai/v1'),
  hosted('openrouter', 'OpenRouter', 'openai-chat', 'OPENROUTER_API_KEY', 'https://openrouter.ai/api/v1'),
  {
    slug: 'ollama',
    name: 'Ollama',
    api: 'openai-chat',
    variable: 'OLLAMA_BASE_URL',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: true,
    region: 'global',
  },
  {
    slug: 'vllm',
    name: 'vLLM',
    api: 'openai-chat',
    variable: 'VLLM_BASE_URL',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: true,
    region: 'global',
  },
  ...cloudPresets,
]
