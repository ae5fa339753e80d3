import { run } from './cli.js'

run()
