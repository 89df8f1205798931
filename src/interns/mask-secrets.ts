// Masks secret values in text that leaves the egress layer (tool results, stream, logs, stored content):
// every occurrence of a value, and of its URL-encoded and base64 forms, becomes `[secret:NAME]`.

export interface KnownSecret {
  readonly name: string
  readonly value: string
}

/** The forms of a value to mask, longest first: the value itself always, encoded forms when 4+ characters. */
function formsOf(value: string): string[] {
  const forms = new Set([
    value,
    encodeURIComponent(value),
    Buffer.from(value, 'utf8').toString('base64'),
    Buffer.from(value, 'utf8').toString('base64url'),
  ])
  return [...forms].filter((form) => form === value || form.length >= 4).sort((a, b) => b.length - a.length)
}

export function maskSecrets(text: string, secrets: readonly KnownSecret[]): string {
  const pairs = secrets.flatMap((secret) =>
    formsOf(secret.value).map((form) => ({ form, label: `[secret:${secret.name}]` })),
  )
  pairs.sort((a, b) => b.form.length - a.form.length)
  let masked = text
  for (const { form, label } of pairs) masked = masked.split(form).join(label)
  return masked
}
