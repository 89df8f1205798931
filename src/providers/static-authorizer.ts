// The authorizer of a provider with a static key: one header, computed once per provider entry and
// merged with no await. Without a key (a local OpenAI-compatible server) nothing is added.
import type { Authorizer } from './provider-adapter.ts'

const noCredentials: Authorizer = { headers: {} }

export function headerAuthorizer(name: string, value: string | null): Authorizer {
  return value === null ? noCredentials : { headers: { [name]: value } }
}
