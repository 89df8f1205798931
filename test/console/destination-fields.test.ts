// The console's table of observability config fields (console/observability/destination-fields.ts)
// must say what the API checks (src/observability/destination-types.ts): same types, same fields, same
// required, secret, URL, default and closed-choice rules.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { destinationFields } from '../../console/observability/destination-fields.ts'
import { configFields } from '../../src/observability/destination-types.ts'

test("the console's destination config fields are the API's", () => {
  assert.deepEqual(destinationFields, configFields)
})
