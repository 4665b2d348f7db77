/**
 * The part of the CLI that runs the engine (dist/cliEngine.js), loaded by dist/cli.js only when no
 * server answers its call: a call a server answers never loads it.
 */
export { runLocally } from './cli/local';
export { serve, signalled } from './cli/server';
