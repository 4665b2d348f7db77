/**
 * The engine's settings: the CLI and the MCP server answer with the defaults a person sees in VS Code's
 * Settings (package.json), and the large-file check reads files up to 32 MiB, or up to maxFileSize when
 * that is larger.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as nodePath from 'path';
import { checkedFileSize, DEFAULT_CONFIG, LARGE_FILE_CHECK_MAX_BYTES, type EngineConfig } from '../../../../src/engine/api/config';

/** The repository root: this file runs from out/test/unit/engine/api/. */
const repoRoot = nodePath.resolve(__dirname, '../../../../..');

/** package.json's default of each grepTools.* setting. */
function settingDefaults(): Map<string, unknown> {
  const manifest = JSON.parse(fs.readFileSync(nodePath.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: Array<{ properties: Record<string, { default?: unknown }> }> };
  };
  return new Map(manifest.contributes.configuration.flatMap((group) => Object.entries(group.properties).map(([key, value]) => [key, value.default])));
}

/** The setting each engine setting is read from (src/vscode/settings.ts). */
const SETTING_OF: Record<keyof EngineConfig, string> = {
  maxResults: 'grepTools.maxResults',
  maxResultsCap: 'grepTools.maxResultsCap',
  maxFileSize: 'grepTools.maxFileSize',
  maxOutputBytes: 'grepTools.maxOutputBytes',
  maxLineLength: 'grepTools.maxLineLength',
  timeoutSeconds: 'grepTools.timeoutSeconds',
  deniedPaths: 'grepTools.deniedPaths',
  allowedPaths: 'grepTools.allowedPaths',
  respectGitignore: 'grepTools.respectGitignore',
  definitions: 'grepTools.definitions.enabled',
};

describe('engine/api/config', () => {
  it("the defaults outside VS Code are the defaults of VS Code's settings, each of them", () => {
    const defaults = settingDefaults();
    for (const [key, setting] of Object.entries(SETTING_OF)) {
      assert.ok(defaults.has(setting), `package.json declares ${setting}`);
      assert.deepStrictEqual(DEFAULT_CONFIG[key as keyof EngineConfig], defaults.get(setting), setting);
    }
  });

  it('the defaults cannot be changed by a caller that takes them', () => {
    assert.throws(() => {
      (DEFAULT_CONFIG as EngineConfig).maxResults = 5;
    }, TypeError);
    assert.strictEqual(DEFAULT_CONFIG.maxResults, 100);
  });

  it('the large-file check reads up to 32 MiB, or up to maxFileSize when that is larger', () => {
    assert.strictEqual(LARGE_FILE_CHECK_MAX_BYTES, 32 * 1024 * 1024);
    assert.strictEqual(checkedFileSize(DEFAULT_CONFIG.maxFileSize), 32 * 1024 * 1024);
    assert.strictEqual(checkedFileSize(64 * 1024 * 1024), 64 * 1024 * 1024);
  });
});
