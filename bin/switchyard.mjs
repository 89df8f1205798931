#!/usr/bin/env node
// `switchyard <command>` (npm link / npx): runs the TypeScript sources through tsx in this process.
import { register } from 'tsx/esm/api'

register()
await import('../src/main.ts')
