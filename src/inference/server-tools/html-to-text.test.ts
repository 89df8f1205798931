import { test } from 'node:test'
import assert from 'node:assert/strict'
import { htmlTitle, htmlToText } from './html-to-text.ts'

test('keeps the readable text of a page and drops scripts, styles and markup', () => {
  const html = `<!doctype html><html><head><title>Tide &amp; times</title><style>p{color:red}</style></head>
<body><script>alert("x")</script><h1>High tide</h1><p>At <b>06:12</b>&nbsp;today &#8212; low at &#x31;2:30.</p><!-- hidden --><ul><li>one</li><li>two</li></ul></body></html>`
  assert.equal(htmlTitle(html), 'Tide & times')
  assert.equal(htmlToText(html), 'High tide\n\nAt 06:12 today — low at 12:30.\n\none\n\ntwo')
})
