// The baseline of bench/downloads.mjs: a bare node:http server piping files from one folder with default
// stream settings (fs.createReadStream, 64 KiB chunks), Content-Length set, nothing else.
//   node file-server.cjs <folder>
// Prints "LISTENING <port>" once it accepts connections.
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const folder = process.argv[2];
const server = http.createServer((request, response) => {
  const file = path.join(folder, path.basename(decodeURIComponent(request.url.split('?')[0])));
  fs.stat(file, (error, stat) => {
    if (error || !stat.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': stat.size });
    fs.createReadStream(file).pipe(response);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${server.address().port}`));
