// scripts/lib/installEnv.mjs: the environment every installer the project runs gets.
import assert from 'node:assert/strict';
import { installerEnv } from '../../../scripts/lib/installEnv.mjs';

describe('installerEnv (scripts/lib/installEnv.mjs)', () => {
  // What `npm test` on Node 20 hands its script: the outer npm's settings and identity.
  const polluted = {
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    PATH: '/work/repo/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/local/bin:/usr/bin',
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_config_nodedir: '/usr',
    npm_config_cache: '/tmp/other-cache',
    npm_config_ignore_scripts: 'true',
    npm_config_global_prefix: '/usr',
    NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
    npm_package_name: 'vscode-grep-tools',
    npm_lifecycle_event: 'test',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: '/usr/bin/node',
    GREP_TOOLS_CACHE: '/tmp/cache',
  };

  it('passes on no npm_* variable of the caller, in any case', () => {
    const env = installerEnv(polluted, { nodeDir: '/cache/node24' });
    const leaked = Object.keys(env).filter((name) => /^npm_/i.test(name) && name !== 'npm_config_nodedir');
    assert.deepEqual(leaked, []);
    assert.equal(env.npm_config_user_agent, undefined);
    assert.equal(env.npm_config_ignore_scripts, undefined);
    assert.equal(env.NPM_CONFIG_REGISTRY, undefined);
  });

  it('puts the given Node first on PATH and its headers as nodedir', () => {
    const env = installerEnv(polluted, { nodeDir: '/cache/node24' });
    assert.equal(env.PATH, '/cache/node24/bin:/usr/local/bin:/usr/bin');
    assert.equal(env.npm_config_nodedir, '/cache/node24');
  });

  it('keeps the rest of the environment and adds only the settings asked for', () => {
    const env = installerEnv(polluted, { settings: { allow_scripts: 'code-server' } });
    assert.equal(env.HOME, '/home/u');
    assert.equal(env.GREP_TOOLS_CACHE, '/tmp/cache');
    assert.equal(env.npm_config_allow_scripts, 'code-server');
    assert.equal(env.npm_config_nodedir, undefined);
    assert.equal(env.PATH, '/usr/local/bin:/usr/bin');
  });

  it('does not change the environment it was given', () => {
    const copy = { ...polluted };
    installerEnv(polluted, { nodeDir: '/n' });
    assert.deepEqual(polluted, copy);
  });
});

describe('a child started with installerEnv', () => {
  it('sees none of the npm settings of the npm that started the tests', async () => {
    const { spawnSync } = await import('node:child_process');
    const parent = { ...process.env, npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64', npm_config_ignore_scripts: 'true' };
    const child = spawnSync(process.execPath, ['-p', 'JSON.stringify(Object.keys(process.env).filter((n) => /^npm_/i.test(n)))'], {
      env: installerEnv(parent),
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), []);
  });
});
