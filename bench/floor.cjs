// The floor under any Node.js search of a tree: what a minimal program pays with no rules at all (no
// .gitignore, no excludes, no guard, no order, no answer), to set the engine's figures against.
//   node bench/floor.cjs start                   Node starts and exits
//   node bench/floor.cjs walk DIR                lists every file (readdirSync, recursive)
//   node bench/floor.cjs read DIR LITERAL        lists, reads and Buffer.indexOf's every file on this thread
//   node bench/floor.cjs workers DIR LITERAL N   the same with N worker threads, fed while the walk goes on
//   node bench/floor.cjs checked DIR LITERAL N   the same, each open file's real path read from /proc/<pid>/fd
//                                                as the engine's reader does (Linux): the one check it cannot skip
// Prints the number of files holding the literal.
'use strict';
const fs = require('fs');
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

const MAX_SIZE = 1024 * 1024;
const buffer = Buffer.allocUnsafe(MAX_SIZE + 1);

const FD_LINKS = `/proc/${process.pid}/fd/`;

function holds(path, needle, checked) {
  const fd = fs.openSync(path, 'r');
  try {
    if (checked) fs.readlinkSync(FD_LINKS + fd);
    const size = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return size <= MAX_SIZE && buffer.subarray(0, size).indexOf(needle) !== -1;
  } finally {
    fs.closeSync(fd);
  }
}

function walk(dir, onFile) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== '.git') walk(path, onFile);
    } else if (entry.isFile()) onFile(path);
  }
}

if (!isMainThread) {
  const needle = Buffer.from(workerData.literal);
  const { checked } = workerData;
  parentPort.on('message', (paths) => parentPort.postMessage(paths.reduce((n, path) => n + (holds(path, needle, checked) ? 1 : 0), 0)));
} else {
  const [mode, dir, literal, threads] = process.argv.slice(2);
  if (mode === 'walk') {
    let files = 0;
    walk(dir, () => files++);
    console.log(files);
  } else if (mode === 'read') {
    const needle = Buffer.from(literal);
    let found = 0;
    walk(dir, (path) => (found += holds(path, needle) ? 1 : 0));
    console.log(found);
  } else if (mode === 'workers' || mode === 'checked') {
    const checked = mode === 'checked';
    const workers = Array.from({ length: Number(threads) }, () => new Worker(__filename, { workerData: { literal, checked } }));
    let found = 0;
    let outstanding = 0;
    let walked = false;
    let next = 0;
    let batch = [];
    const send = () => {
      outstanding++;
      workers[next++ % workers.length].postMessage(batch);
      batch = [];
    };
    for (const worker of workers) {
      worker.on('message', (count) => {
        found += count;
        if (--outstanding === 0 && walked) {
          console.log(found);
          process.exit(0);
        }
      });
    }
    walk(dir, (path) => batch.push(path) === 64 && send());
    if (batch.length > 0) send();
    walked = true;
    if (outstanding === 0) process.exit(0);
  } else if (mode !== 'start') {
    console.error('usage: node bench/floor.cjs start | walk DIR | read DIR LITERAL | workers DIR LITERAL N | checked DIR LITERAL N');
    process.exit(1);
  }
}
