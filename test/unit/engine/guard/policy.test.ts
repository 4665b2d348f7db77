/**
 * `grepTools.deniedPaths` and `grepTools.allowedPaths` as VS Code's `inspect` gives them, merged so that a
 * workspace (a cloned repository's .vscode/settings.json) can only narrow what is searched, never widen it.
 */
import * as assert from 'assert';
import { mergePolicy } from '../../../../src/engine/guard/policy';

describe("engine/guard/policy: the policy settings merged across VS Code's setting levels", () => {
  const defaults = ['**/.env', '**/.git/**'];
  it("lets a workspace add denied rules but not remove the user's or the defaults", () => {
    assert.deepStrictEqual(mergePolicy(undefined, undefined, defaults), { deniedPaths: defaults, allowedPaths: [] });
    assert.deepStrictEqual(mergePolicy({ workspaceValue: [] }, undefined, defaults).deniedPaths, defaults);
    assert.deepStrictEqual(mergePolicy({ workspaceValue: ['**/fixtures/**'], workspaceFolderValue: ['**/*.sql'] }, undefined, defaults).deniedPaths, [
      ...defaults,
      '**/fixtures/**',
      '**/*.sql',
    ]);
    assert.deepStrictEqual(mergePolicy({ globalValue: ['**/.env'] }, undefined, defaults).deniedPaths, ['**/.env'], 'the user may change their own list');
    assert.deepStrictEqual(
      mergePolicy({ globalValue: 'oops', workspaceValue: [1] }, undefined, defaults).deniedPaths,
      defaults,
      'malformed values are ignored',
    );
  });

  it("lets the user's allow-list win; a workspace's applies only when the user has none", () => {
    assert.deepStrictEqual(mergePolicy(undefined, { globalValue: ['src/**'], workspaceValue: [] }, defaults).allowedPaths, ['src/**']);
    assert.deepStrictEqual(mergePolicy(undefined, { workspaceValue: ['docs/**'] }, defaults).allowedPaths, ['docs/**']);
    assert.deepStrictEqual(mergePolicy(undefined, { workspaceValue: ['docs/**'], workspaceFolderValue: ['lib/**'] }, defaults).allowedPaths, ['lib/**']);
  });
});
