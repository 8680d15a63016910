// The baseline of bench/downloads.mjs's S3 run: a bare node:http server streaming objects from the same store
// with the AWS SDK's defaults (GetObject, its Body piped to the response), Content-Length set, nothing else.
//   node s3-file-server.cjs <endpoint> <bucket>     GET /<key> answers the object
// Prints "LISTENING <port>" once it accepts connections. Credentials come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY.
const http = require('node:http');
const { createRequire } = require('node:module');
const { join } = require('node:path');

const serverRequire = createRequire(join(__dirname, '../../server/package.json'));
const { GetObjectCommand, S3Client } = serverRequire('@aws-sdk/client-s3');

const [endpoint, bucket] = process.argv.slice(2);
const client = new S3Client({
  region: 'us-east-1',
  endpoint,
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

const server = http.createServer(async (request, response) => {
  const key = decodeURIComponent(request.url.split('?')[0].slice(1));
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': object.ContentLength });
    object.Body.pipe(response);
    response.on('close', () => object.Body.destroy());
  } catch (error) {
    response.writeHead(error.$metadata?.httpStatusCode === 404 ? 404 : 502).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${server.address().port}`));
