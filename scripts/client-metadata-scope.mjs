// Rewrites oauth/client-metadata.json's `scope` to what the app declares
// (RELEASE_CLIENT_SCOPE in src/shared/scopes.ts), keeping the rest of the file as it is.
// Run after a lexicon adds a method to the base permission set:
//   node --import tsx scripts/client-metadata-scope.mjs
import fs from 'node:fs'
import { RELEASE_CLIENT_SCOPE } from '../src/shared/scopes.ts'

const file = new URL('../oauth/client-metadata.json', import.meta.url)
const text = fs.readFileSync(file, 'utf8')
const next = text.replace(/"scope": "[^"]*"/, `"scope": ${JSON.stringify(RELEASE_CLIENT_SCOPE)}`)
if (next !== text) fs.writeFileSync(file, next)
console.log(next === text ? 'oauth/client-metadata.json: scope already current' : 'oauth/client-metadata.json: scope rewritten')
