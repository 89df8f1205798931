// Labelled inputs whose browser-side rules mirror the API's (required, lengths, minimums), so most
// mistakes are caught before the request; whatever the API still refuses is shown by the form.
import type { InputHTMLAttributes } from 'preact'
interface TextFieldProps {
  readonly label: string
  readonly value: string
  readonly onInput: (value: string) => void
  readonly required?: boolean
  readonly maxLength?: number
  readonly type?: 'text' | 'number' | 'datetime-local' | 'search' | 'url' | 'password'
  readonly min?: number
  readonly max?: number
  /** A regular expression the whole value must match, as the API's schema has it. */
  readonly pattern?: string
  /** Said by the browser when the value breaks `pattern`. */
  readonly title?: string
  readonly step?: string
  readonly placeholder?: string
}

export function TextField({ label, value, onInput, type = 'text', ...rules }: TextFieldProps) {
  // Preact types <input> per ARIA role and type; these few types all take the text attributes used here.
  const attributes = { type, value, ...rules } as InputHTMLAttributes
  return (
    <label>
      {label}
      <input {...attributes} onInput={(event) => onInput(event.currentTarget.value)} />
    </label>
  )
}

interface SelectFieldProps {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly options: readonly (readonly [value: string, text: string])[]
}

export function SelectField({ label, value, onChange, options }: SelectFieldProps) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}

export function CheckboxField({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (value: boolean) => void
}) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} />
      {label}
    </label>
  )
}

export const limitResetOptions = [
  ['', 'never (lifetime limit)'],
  ['daily', 'daily'],
  ['weekly', 'weekly'],
  ['monthly', 'monthly'],
] as const

/** '' -> null, else the number (the input's min and step already hold the API's rules). */
export function optionalNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text)
}
