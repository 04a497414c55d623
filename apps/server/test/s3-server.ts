// An S3-compatible server for the tests of the S3 blob store (decision 070): fauxqs on a free loopback port, its
// objects as files in the folder given as the first argument. Run as a child process (test/blobs-s3.test.ts), so
// its memory is not the memory the tests measure; it prints {"port": N} once listening and stops when its standard
// input closes (the test ended, or died).
import { startFauxqs } from 'fauxqs';

const [s3StorageDir] = process.argv.slice(2);
if (!s3StorageDir) throw new Error('usage: s3-server.ts STORAGE_DIR');
const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false, s3StorageDir });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.stop().then(() => process.exit(0));
});
