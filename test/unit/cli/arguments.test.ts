/** The command line's paths (--workspace, --index-dir) under path.posix and path.win32 whatever platform runs the test. */
import * as assert from 'assert';
import * as nodePath from 'path';
import { isOutcome, parseArguments } from '../../../src/cli/arguments';

describe('cli arguments under both path flavours', () => {
  it('under path.win32, resolves --workspace and --index-dir against the current directory with its separator', () => {
    const parsed = parseArguments(
      ['grep', '{}', '--workspace', '..\\ws', '--workspace', 'D:/other/', '--index-dir', 'idx'],
      'C:\\Users\\dev\\tools',
      nodePath.win32,
    );
    assert.ok(!isOutcome(parsed));
    assert.deepStrictEqual(parsed.folders, ['C:\\Users\\dev\\ws', 'D:\\other']);
    assert.strictEqual(parsed.indexDir, 'C:\\Users\\dev\\tools\\idx');
  });

  it('under path.win32, the default index of a folder is the same whatever case the command line writes it in', () => {
    const a = parseArguments(['index', '--workspace', 'C:\\Users\\dev\\ws'], 'C:\\', nodePath.win32);
    const b = parseArguments(['index', '--workspace', 'c:\\users\\dev\\WS'], 'C:\\', nodePath.win32);
    assert.ok(!isOutcome(a) && !isOutcome(b));
    assert.strictEqual(a.indexDir, b.indexDir);
  });

  it('under path.posix, resolves the same flags with /', () => {
    const parsed = parseArguments(['glob', '{}', '--workspace', '../ws', '--index-dir', '/tmp/idx'], '/home/dev/tools', nodePath.posix);
    assert.ok(!isOutcome(parsed));
    assert.deepStrictEqual(parsed.folders, ['/home/dev/ws']);
    assert.strictEqual(parsed.indexDir, '/tmp/idx');
  });
});
