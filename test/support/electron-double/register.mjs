// Loaded with `node --import` before the built main bundle: every `electron` import or
// require (ours and our dependencies') resolves to the stand-in next to this file.
import { registerHooks } from 'node:module'

const double = new URL('./electron.mjs', import.meta.url).href
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: double, format: 'module', shortCircuit: true }
    return nextResolve(specifier, context)
  },
})
