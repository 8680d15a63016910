// The object store of bench/downloads.mjs's S3 run: s3rver (a small S3-protocol server, as the API tests use)
// in a process of its own, so neither the portal nor the baseline shares its event loop.
//   node s3-server.cjs <directory> <bucket>
// Prints "LISTENING <port>" once it accepts requests.
const { createRequire } = require('node:module');
const { join } = require('node:path');

const serverRequire = createRequire(join(__dirname, '../../server/package.json'));
const S3rver = serverRequire('s3rver');

const [directory, bucket] = process.argv.slice(2);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then(({ port }) => console.log(`LISTENING ${port}`))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
