import * as assert from 'assert';
import * as fs from 'fs';
import { unchangedSince } from '../../../../src/vscode/sources/storedListing';
import { Fixture } from '../../fixture';
import { listingOf, walk, walked } from './storedListingFixture';

describe('stored listings and symlinks', () => {
  let fixture: Fixture;
  beforeEach(() => (fixture = new Fixture()));
  afterEach(() => fixture.remove());

  it('follows a directory link inside the folder once, even one into a directory the listing leaves out, and never loops', async () => {
    fixture.files({ 'node_modules/lib/i.js': '', 'src/s.ts': '' });
    fixture.mkdir('node_modules/lib/sub');
    fixture.symlink('../node_modules/lib', 'src/lib');
    fixture.symlink('..', 'src/up');
    assert.deepStrictEqual(await walked(fixture, walk(['node_modules'])), ['', 'src', 'src/lib', 'src/lib/sub']);
  });

  it('does not follow a link out of the granted roots, and gives up on one into another granted root', async () => {
    const outside = new Fixture();
    try {
      outside.mkdir('d');
      fixture.mkdir('a');
      fixture.symlink(outside.path('d'), 'a/out');
      assert.deepStrictEqual(await walked(fixture), ['', 'a'], 'a link out of every granted root is not entered');
      assert.strictEqual(await walked(fixture, walk([], [outside.root])), undefined, 'a link into another workspace folder: not stored');
    } finally {
      outside.remove();
    }
  });

  it('is not current once a directory became another (a link retargeted, a folder replaced)', async () => {
    fixture.files({ 'a/x.ts': '', 'b/x.ts': '' });
    fixture.symlink('a', 'l');
    // The folder itself is left out: retargeting the link changes its times, and the identity alone is tested.
    const listing = await listingOf(fixture, ['a/x.ts', 'b/x.ts'], [fixture.path('a'), fixture.path('l')], Date.now() + 5_000);
    assert.strictEqual(await unchangedSince(listing, () => false), true);
    fs.unlinkSync(fixture.path('l'));
    fs.symlinkSync('b', fixture.path('l'));
    assert.strictEqual(await unchangedSince(listing, () => false), false);
  });
});
