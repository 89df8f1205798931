// The inputs of one destination type's `config`: one per field, required ones marked required, secrets
// as passwords, closed choices as selects, and each default as the empty input's placeholder.
import { SelectField, TextField } from '../components/form-fields.tsx'
import type { ConfigField } from './destination-type.ts'

interface ConfigInputsProps {
  readonly fields: readonly ConfigField[]
  readonly values: Readonly<Record<string, string>>
  readonly onChange: (field: string, value: string) => void
}

export function ConfigInputs({ fields, values, onChange }: ConfigInputsProps) {
  return (
    <>
      {fields.map((rule) => {
        const field = rule.name
        const label = `config.${field}${rule.required ? '' : ' (optional)'}`
        const value = values[field] ?? ''
        if (rule.values !== null) {
          const options = rule.values.map((option) => [option, option] as const)
          return (
            <SelectField
              key={field}
              label={label}
              value={value || (rule.default ?? '')}
              onChange={(next) => onChange(field, next)}
              options={options}
            />
          )
        }
        return (
          <TextField
            key={field}
            label={label}
            type={rule.secret ? 'password' : rule.url ? 'url' : 'text'}
            value={value}
            onInput={(next) => onChange(field, next)}
            required={rule.required}
            {...(rule.default === null ? {} : { placeholder: rule.default })}
          />
        )
      })}
    </>
  )
}

/** The config the API is sent: the fields filled in, trimmed (an empty one takes the API's default). */
export function configBody(fields: readonly ConfigField[], values: Readonly<Record<string, string>>) {
  const config: Record<string, string> = {}
  for (const { name } of fields) {
    const value = (values[name] ?? '').trim()
    if (value !== '') config[name] = value
  }
  return config
}
