// The console's entry point: renders the app into the page served at /console.
import { render } from 'preact'
import { App } from './app.tsx'

render(<App />, document.getElementById('app')!)
