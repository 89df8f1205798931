import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { importX, createNodeResolver } from 'eslint-plugin-import-x'

// An object literal with a getter or setter is kept in dictionary mode by V8, and one made per request
// promoted the request with it: use a class or a method instead.
const getterInLiteral = {
  selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
  message:
    'No getters or setters in object literals (V8 keeps such objects in dictionary mode and they promote what they reach): use a class, or a method.',
}

// Route handlers take their types from their TypeBox schemas through the type provider, never from a cast.
const requestCast = {
  selector:
    'TSAsExpression > MemberExpression[object.name=/^(request|req)$/][property.name=/^(body|query|params|headers)$/]',
  message:
    "Don't cast a request's body, query, params or headers: give the route a TypeBox schema and let the type provider type it.",
}

// The layer rules of DESIGN.md section 2, as zones: files under `target` may not import from `from`.
const everythingBut = (...allowed) =>
  [
    'accounting',
    'batches',
    'cli',
    'config',
    'counters',
    'dialects',
    'domain',
    'events',
    'generations',
    'guardrails',
    'http',
    'identity',
    'inference',
    'interns',
    'management',
    'observability',
    'private-endpoints',
    'providers',
    'rate-limits',
    'store',
    'vault',
  ]
    .filter((folder) => !allowed.includes(folder))
    .map((folder) => `./src/${folder}`)
    .concat(['./src/app.ts', './src/gateway.ts', './src/main.ts'])
const layerZones = [
  { target: './src/domain', from: everythingBut('domain'), message: 'domain/ imports nothing of ours.' },
  { target: './src/providers', from: everythingBut('domain', 'providers'), message: 'providers/ import only domain/.' },
  { target: './src/dialects', from: everythingBut('domain', 'dialects'), message: 'dialects/ import only domain/.' },
  { target: './src/store', from: everythingBut('domain', 'store'), message: 'store/ imports only domain/.' },
  {
    target: './src/inference',
    from: './src/management',
    message: 'inference/ and management/ never import each other.',
  },
  {
    target: './src/management',
    from: './src/inference',
    message: 'inference/ and management/ never import each other.',
  },
]

// The web console (console/) is browser code: it reaches the gateway only over HTTP, so it imports nothing
// of the server, and the server imports nothing of it.
const consoleZones = [
  {
    target: './console',
    from: ['./src', './test', './scripts', './bench', './bin'],
    message: 'console/ is browser code: it talks to the gateway over the public API, never by import.',
  },
]
const browserGlobals = Object.fromEntries(
  [
    'window',
    'document',
    'location',
    'history',
    'navigator',
    'sessionStorage',
    'crypto',
    'fetch',
    'Response',
    'URLSearchParams',
    'TextEncoder',
    'Event',
    'confirm',
    'addEventListener',
    'removeEventListener',
    'console',
  ].map((name) => [name, 'readonly']),
)

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
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })] },
    rules: {
      'no-restricted-syntax': ['error', getterInLiteral, requestCast],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            { target: './src', from: './console', message: 'The server imports nothing of console/.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only main.ts reads the environment: pass values down.' },
      ],
    },
  },
  {
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
    languageOptions: { globals: browserGlobals },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: consoleZones }],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'console/ runs in the browser: there is no process.' },
        { name: 'localStorage', message: 'Keys live in sessionStorage only (gone when the tab closes).' },
      ],
      'max-lines-per-function': ['error', { max: 60 }],
    },
  },
  {
    files: ['src/main.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.mjs', 'bin/**/*.mjs'],
    ignores: ['**/*.test.ts', '**/*.contract.ts', '**/*.properties.ts', '**/*.fixture.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
)
