// After the web build: write a Brotli (.br) and a gzip (.gz) copy of every text asset, so the
// server sends compressed bytes without compressing on each request (@fastify/static
// `preCompressed`). A first visit on a slow phone network downloads about a third of the bytes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve('build/client');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|data|txt|xml|webmanifest)$/;
const SIZE_MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
function walk(directory: string): void {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (COMPRESSIBLE.test(entry.name)) {
      const bytes = fs.readFileSync(full);
      if (bytes.length < SIZE_MIN_BYTES) continue;
      const brotli = zlib.brotliCompressSync(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      });
      fs.writeFileSync(`${full}.br`, brotli);
      fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      files += 1;
      before += bytes.length;
      after += brotli.length;
    }
  }
}

walk(root);
console.log(`Precompressed ${files} files: ${Math.round(before / 1024)} kB -> ${Math.round(after / 1024)} kB (brotli)`);
