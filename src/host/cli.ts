import fs from 'node:fs'
import path from 'node:path'
import { HOST_USAGE, parseHostArgs, parseRepoTakedownArgs, parseRotateKeyArgs, UsageError } from './config.js'
import { startHost } from './server.js'
import type { Logger } from 'pino'
import { createHostLogger } from './log/logger.js'
import { HostKeyError, writeNewHostKeyFile } from './secrets/host-key.js'
import { rotateHostKey } from './secrets/rotate-key.js'
import { setRepoTakedown } from './repo/takedown-command.js'

/** Usage errors and key problems are the operator's to fix: said plainly, exit 2. */
function usageFailure(err: unknown): never {
  process.stderr.write(`${(err as Error).message}\n\n${HOST_USAGE}`)
  process.exit(2)
}

/** Lets the asynchronous log writer finish its last lines, then exits (at most a second later). */
function exitAfterFlush(logger: Logger, code: number) {
  setTimeout(() => process.exit(code), 1000).unref()
  logger.flush(() => process.exit(code))
}

async function serve(argv: string[]) {
  let options
  try {
    options = parseHostArgs(argv)
  } catch (err) {
    usageFailure(err)
  }
  if (options === 'help') {
    process.stdout.write(HOST_USAGE)
    return
  }
  const logger = createHostLogger()
  let host
  try {
    host = await startHost(options, logger)
  } catch (err) {
    if (err instanceof HostKeyError) usageFailure(err)
    logger.fatal({ err }, 'host failed to start')
    process.stderr.write(`group host failed to start: ${(err as Error).message}\n`)
    exitAfterFlush(logger, 1)
    return
  }
  const ready = {
    url: host.url,
    serviceDid: host.ctx.identity.did,
    aud: host.ctx.identity.aud,
    groups: host.groups,
  }
  if (options.readyFile) {
    // Written whole then renamed, so a watcher never reads half a file. Its folder may
    // not exist: with --db, nothing else is written to the data directory.
    fs.mkdirSync(path.dirname(options.readyFile), { recursive: true })
    fs.writeFileSync(`${options.readyFile}.tmp`, JSON.stringify(ready, null, 2))
    fs.renameSync(`${options.readyFile}.tmp`, options.readyFile)
  }
  const stop = async (signal: string) => {
    logger.info({ signal }, 'host received signal')
    await host.close()
    exitAfterFlush(logger, 0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception')
    exitAfterFlush(logger, 1)
  })
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'))
}

/**
 * The host's command line: `serve` (the default) or an operator command. Kept apart from
 * bin.ts, which runs it, so a test run's warm host process (src/stack/host-bundle.ts) can
 * load the whole host ahead of need and start it once its arguments arrive.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'new-key-file') {
    if (rest.length !== 1) usageFailure(new UsageError('new-key-file takes one path'))
    try {
      writeNewHostKeyFile(rest[0]!)
    } catch (err) {
      usageFailure(new UsageError(`cannot write ${rest[0]}: ${(err as Error).message}`))
    }
    process.stderr.write(`wrote a new host key to ${rest[0]} (keep it outside the data directory and its backups)\n`)
    return
  }
  if (command === 'rotate-key') {
    let opts
    try {
      opts = parseRotateKeyArgs(rest)
    } catch (err) {
      usageFailure(err)
    }
    try {
      const { secrets, groups } = await rotateHostKey(opts)
      process.stderr.write(`re-encrypted ${secrets} host secrets and ${groups} group keys; start the host with ${opts.newKeyFile} now\n`)
    } catch (err) {
      if (err instanceof HostKeyError) usageFailure(err)
      process.stderr.write(`rotate-key failed, nothing changed: ${(err as Error).message}\n`)
      process.exitCode = 1
    }
    return
  }
  if (command === 'takedown-repo' || command === 'restore-repo') {
    let opts
    try {
      opts = parseRepoTakedownArgs(command, rest)
    } catch (err) {
      usageFailure(err)
    }
    try {
      process.stderr.write(`${await setRepoTakedown(opts, command === 'takedown-repo')}\n`)
    } catch (err) {
      if (err instanceof HostKeyError) usageFailure(err)
      process.stderr.write(`${command} failed, nothing changed: ${(err as Error).message}\n`)
      process.exitCode = 1
    }
    return
  }
  await serve(argv)
}

/** Runs the command line as a process does: a failure is said on stderr and ends the process with 1 (bin.ts, and a test run's bundle). */
export function run(argv: string[] = process.argv.slice(2)): void {
  main(argv).catch((err) => {
    process.stderr.write(`group host failed: ${(err as Error).stack ?? err}\n`)
    process.exit(1)
  })
}
