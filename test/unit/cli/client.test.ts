/**
 * The command line asking a running `serve` of its index directory: where the server listens (a socket
 * in the index directory; a named pipe on Windows, one per directory), the answer it gives taken as the
 * answer, and nothing (the client then answers itself) when no server listens, the server declines, or
 * it stops mid-answer.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { createServer, type Server, type Socket } from 'net';
import * as nodePath from 'path';
import type { CliRequest } from '../../../src/cli/arguments';
import { askServer, MAX_SOCKET_PATH, messageText, readMessage, socketPath, type ServerQuestion, type ServerReply } from '../../../src/cli/client';
import { DEFAULT_INDEX_LIMITS } from '../../../src/engine/index/limits';
import { Fixture } from '../fixture';

describe('cli/client', () => {
  const fx = new Fixture('grep-tools-client-');
  let server: Server | undefined;
  after(() => fx.remove());
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  let dirs = 0;
  /** A request of its own index directory (a new one each time: a server listens in one). */
  const request = (): CliRequest => ({
    tool: 'grep',
    json: '{"pattern":"needle"}',
    folders: [fx.path('ws')],
    allowOutside: false,
    indexDir: fx.mkdir(`index${++dirs}`),
    useIndex: true,
    limits: DEFAULT_INDEX_LIMITS,
  });

  /**
   * Whether the client had ended its side of the socket when each reply was written: a Windows named pipe
   * cannot take a reply then, so the client never does.
   */
  const endedBeforeReply: boolean[] = [];

  /** A server at the request's socket, as serve listens (it answers once the question's line is whole), replying `reply` (raw text); the questions go to `heard`. */
  async function serve(asked: CliRequest, reply: (question: ServerQuestion | undefined) => string, heard: ServerQuestion[] = []): Promise<void> {
    server = createServer((socket: Socket) => {
      void readMessage<ServerQuestion>(socket).then((question) => {
        if (question) heard.push(question);
        endedBeforeReply.push(socket.readableEnded);
        socket.end(reply(question));
      });
    });
    await new Promise<void>((resolve) => server!.listen(socketPath(asked.indexDir), resolve));
  }

  it('listens in the index directory; on Windows at a named pipe, the same for the same directory, another for another', () => {
    assert.strictEqual(socketPath('/home/me/.cache/idx', 'linux'), nodePath.join('/home/me/.cache/idx', 'serve.sock'));
    assert.strictEqual(socketPath('/Users/me/idx', 'darwin'), nodePath.join('/Users/me/idx', 'serve.sock'));
    const pipe = socketPath('C:\\idx\\a', 'win32');
    assert.match(pipe, /^\\\\\.\\pipe\\grep-tools-[0-9a-f]{16}$/);
    assert.strictEqual(socketPath('C:\\idx\\a', 'win32'), pipe);
    assert.notStrictEqual(socketPath('C:\\idx\\b', 'win32'), pipe);
  });

  it("takes the server's answer, after telling it the request and the engine it expects", async () => {
    const asked = request();
    const heard: ServerQuestion[] = [];
    endedBeforeReply.length = 0;
    await serve(asked, () => messageText({ outcome: { code: 0, stdout: 'the answer' } } satisfies ServerReply), heard);
    assert.deepStrictEqual(await askServer(asked, 'engine-1'), { code: 0, stdout: 'the answer' });
    assert.deepStrictEqual(heard, [{ engine: 'engine-1', request: asked }]);
    assert.deepStrictEqual(endedBeforeReply, [false], "the client's side stays open until the answer");
  });

  it('gives nothing when the server declines, or stops before its answer is whole', async () => {
    const declined = request();
    await serve(declined, () => messageText({ declined: 'another engine' } satisfies ServerReply));
    assert.strictEqual(await askServer(declined, 'engine-1'), undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const cut = request();
    await serve(cut, () => '{"outcome":{"code":0,"std');
    assert.strictEqual(await askServer(cut, 'engine-1'), undefined);
  });

  // A socket file's path has a length limit; a Windows named pipe is named by a hash, whatever the directory.
  const pipes = process.platform === 'win32';
  it(
    pipes
      ? "asks the server of an index directory with a long path: its named pipe's name is as short as any other's"
      : 'asks no server whose socket path is longer than every platform accepts (over 103 bytes), though one listens there',
    async () => {
      const asked = request();
      const padding = MAX_SOCKET_PATH + 1 - Buffer.byteLength(socketPath(asked.indexDir)); // with the '-': 2 bytes over
      asked.indexDir = fx.mkdir(`${nodePath.basename(asked.indexDir)}-${'x'.repeat(pipes ? 80 : padding)}`);
      const heard: ServerQuestion[] = [];
      await serve(asked, () => messageText({ outcome: { code: 0, stdout: 'the answer' } } satisfies ServerReply), heard);
      if (pipes) {
        assert.deepStrictEqual(await askServer(asked, 'engine-1'), { code: 0, stdout: 'the answer' });
        assert.strictEqual(heard.length, 1);
        return;
      }
      assert.strictEqual(Buffer.byteLength(socketPath(asked.indexDir)), MAX_SOCKET_PATH + 2);
      assert.strictEqual(await askServer(asked, 'engine-1'), undefined);
      assert.deepStrictEqual(heard, []);
    },
  );

  it('gives nothing when no server listens', async () => {
    const asked = request();
    assert.ok(!fs.existsSync(nodePath.join(asked.indexDir, 'serve.sock')));
    assert.strictEqual(await askServer(asked, 'engine-1'), undefined);
  });
});
