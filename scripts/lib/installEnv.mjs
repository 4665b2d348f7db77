// The one place that builds the environment for every npm (or other installer) the project runs for itself.
// `npm test` and `npm start` are npm scripts: the outer npm exports its settings to the child as
// `npm_config_*` (and `npm_package_*`, `npm_lifecycle_*`, `npm_config_user_agent` naming the outer Node).
// A nested `npm install` would read them back as its own settings, and install scripts that check the Node
// version read the user agent (code-server's postinstall refuses "node v20" though Node 24 runs it). So the
// child gets none of them: the caller's environment minus every npm_* variable (any case), plus what the
// install needs, stated explicitly.
import { delimiter, join } from 'node:path';

/**
 * @param {NodeJS.ProcessEnv} parent the environment to start from (usually process.env)
 * @param {{ nodeDir?: string, settings?: Record<string, string> }} [options]
 *   nodeDir: a Node installation (bin/node, include/node): first on PATH, and its headers as `nodedir` for node-gyp;
 *   settings: npm settings to pass, by name without the `npm_config_` prefix.
 * @returns {NodeJS.ProcessEnv}
 */
export function installerEnv(parent, options = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [name, value] of Object.entries(parent)) {
    if (/^npm_/i.test(name)) continue;
    // npm's own run-script wrapper puts node_modules/.bin folders and node-gyp-bin of the outer npm on PATH.
    env[name] = value;
  }
  const pathName = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  const path = (env[pathName] ?? '')
    .split(delimiter)
    .filter((entry) => entry && !/[\\/]node_modules[\\/]\.bin$/.test(entry) && !/[\\/]node-gyp-bin$/.test(entry));
  if (options.nodeDir) path.unshift(join(options.nodeDir, 'bin'));
  env[pathName] = path.join(delimiter);
  if (options.nodeDir) env.npm_config_nodedir = options.nodeDir;
  for (const [name, value] of Object.entries(options.settings ?? {})) env[`npm_config_${name}`] = value;
  return env;
}
