/**
 * The guard's refusals as the model reads them: what was refused and by which rule, where a link led,
 * which folders are open, and what to do instead (the caller's own way to consent when it has one).
 */
import * as assert from 'assert';
import { changedTargetMessage, deniedFolderMessage, deniedMessage, notAllowedMessage, outsideMessage } from '../../../../src/engine/guard/messages';

describe('engine/guard/messages', () => {
  it('a denied path names the rule it matches, and where it leads only when a link took it there', () => {
    const direct = deniedMessage('.env', '/ws/.env', '**/.env', false);
    assert.strictEqual(
      direct,
      'permission denied by policy: ".env" matches "**/.env" (grepTools.deniedPaths). Secrets, keys and .git are never searched or listed, whatever the input says; search another path.',
    );
    const linked = deniedMessage('notes', '/home/me/.ssh', '**/.ssh/**', true);
    assert.match(linked, /^permission denied by policy: "notes" \(it leads to \/home\/me\/\.ssh\) matches "\*\*\/\.ssh\/\*\*"/);
  });

  it('a denied workspace folder says to open the project folder instead', () => {
    assert.match(
      deniedFolderMessage('/home/me/.ssh', '**/.ssh/**'),
      /the workspace folder \/home\/me\/\.ssh is itself a denied place: it matches "\*\*\/\.ssh\/\*\*".*open the project folder instead\.$/,
    );
  });

  it('a path the allowed globs do not cover quotes every glob', () => {
    assert.match(
      notAllowedMessage('lib', '/ws/lib', ['src/**', 'docs/*.md']),
      /"lib" \(\/ws\/lib\) is not covered by grepTools.allowedPaths \("src\/\*\*", "docs\/\*\.md"\)\. .*search a path below one of them\.$/,
    );
  });

  it("an outside path names the open folders (or none), and the caller's way to consent, else the person's", () => {
    const folders = [
      { name: 'a', path: '/ws/a' },
      { name: 'b', path: '/ws/b' },
    ];
    const asked = outsideMessage('../x', '/ws/x', folders);
    assert.match(
      asked,
      /^Path "\.\.\/x" resolves to \/ws\/x, which is outside every workspace folder \(\/ws\/a, \/ws\/b\)\. Searching outside the workspace needs the user's confirmation\./,
    );
    assert.match(outsideMessage(undefined, '/ws/x', []), /^Path "\/ws\/x" resolves to \/ws\/x, which is outside every workspace folder \(none open\)\./);
    assert.match(outsideMessage('/x', '/x', folders, 'Pass --allow-outside.'), /\(\/ws\/a, \/ws\/b\)\. Pass --allow-outside\.$/);
  });

  it('a changed link names both places and says to call again for a new confirmation', () => {
    assert.strictEqual(
      changedTargetMessage('link', '/elsewhere', '/confirmed'),
      'Path "link" now resolves to /elsewhere, not to /confirmed, which the user confirmed; nothing was searched. Call the tool again so the user can confirm the new location.',
    );
  });
});
