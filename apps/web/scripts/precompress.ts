// After `vite build`: writes a Brotli (.br) and a gzip (.gz) copy beside every text asset of dist, so the
// server sends compressed files without compressing on each request (@fastify/static `preCompressed`). The
// HTML pages are templates the server fills in per request (apps/server/src/web/web-app.ts): left alone, like
// the build manifest the server reads.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const COMPRESSIBLE = /\.(js|css|svg|json|txt|webmanifest)$/;

let files = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.parentPath.includes('.vite')) continue;
  const file = path.join(entry.parentPath, entry.name);
  const content = fs.readFileSync(file);
  if (content.length < 1024) continue;
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  files += 1;
}
console.log(`precompressed ${files} files in ${path.relative(process.cwd(), dist)}`);
