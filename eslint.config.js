import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// Hidden-class traps of Node 20's V8 (docs/performance.md, item 32). An object literal with a getter or
// setter is in dictionary mode, and a gateway that made one per request promoted the request with it.
const getterInLiteral = {
  selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
  message:
    'No getters or setters in object literals (V8 keeps such objects in dictionary mode and they promote what they reach): use a class, or a method. See docs/performance.md, item 32.',
}

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', getterInLiteral] },
  },
)
