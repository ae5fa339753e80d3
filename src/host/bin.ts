import fs from 'node:fs'
import { HOST_USAGE, parseHostArgs } from './config.js'
import { startHost } from './server.js'

async function main() {
  let config
  try {
    config = parseHostArgs(process.argv.slice(2))
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${HOST_USAGE}`)
    process.exit(2)
  }
  if (config === 'help') {
    process.stdout.write(HOST_USAGE)
    return
  }
  const host = await startHost(config)
  const ready = {
    url: host.url,
    serviceDid: host.ctx.identity.did,
    aud: host.ctx.identity.aud,
    groups: host.groups,
  }
  if (config.readyFile) {
    // Written whole then renamed, so a watcher never reads half a file.
    fs.writeFileSync(`${config.readyFile}.tmp`, JSON.stringify(ready, null, 2))
    fs.renameSync(`${config.readyFile}.tmp`, config.readyFile)
  }
  process.stderr.write(`group host ${host.ctx.identity.did} serving at ${host.url}\n`)
  const stop = async () => {
    await host.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((err) => {
  process.stderr.write(`group host failed to start: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})
