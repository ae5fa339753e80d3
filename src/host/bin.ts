import { main } from './cli.js'

main().catch((err) => {
  process.stderr.write(`group host failed: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})
