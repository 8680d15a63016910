// The two baselines of bench/validate.mjs, each answering every POST with the same JSON body:
//   node fixed-body-servers.cjs bare   plain node:http (the machine's limit)
//   node fixed-body-servers.cjs nest   NestJS 11 on @nestjs/platform-express with the portal's body-parser
//                                      setup (bodyParser off, express.json and urlencoded with a limit, prefix /api)
//   node fixed-body-servers.cjs bare-body <file> <content-type>
//                                      plain node:http answering every request with that file's bytes (the ceiling
//                                      of bench/support/latency.mjs's client for an answer of that size)
// Each prints "LISTENING <port>" once it accepts connections.
require('reflect-metadata');

const BODY = require('./fixed-body.json');
const TEXT = JSON.stringify(BODY);

async function bare(bytes = Buffer.from(TEXT), contentType = 'application/json; charset=utf-8') {
  const http = require('node:http');
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': bytes.length });
      response.end(bytes);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${server.address().port}`));
}

async function bareBody() {
  await bare(require('node:fs').readFileSync(process.argv[3]), process.argv[4]);
}

async function nest() {
  const { Body, Controller, HttpCode, Module, Post } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { json } = require('express');

  class FixedBodyController {
    answer(_body) {
      return BODY;
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(FixedBodyController.prototype, 'answer');
  Reflect.decorate([Post('validate'), HttpCode(200)], FixedBodyController.prototype, 'answer', descriptor);
  Body()(FixedBodyController.prototype, 'answer', 0);
  Reflect.decorate([Controller('fixed')], FixedBodyController);

  class FixedBodyModule {}
  Reflect.decorate([Module({ controllers: [FixedBodyController] })], FixedBodyModule);

  const app = await NestFactory.create(FixedBodyModule, { bodyParser: false, logger: ['error'] });
  app.use(json({ limit: '1mb' }));
  app.useBodyParser('urlencoded', { limit: '1mb', extended: false });
  app.setGlobalPrefix('api');
  await app.listen(0, '127.0.0.1');
  console.log(`LISTENING ${app.getHttpServer().address().port}`);
}

// An orderly exit on SIGTERM (the bench's stop), so a server run with --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.on('SIGTERM', () => process.exit(0));

({ bare: () => bare(), nest, 'bare-body': bareBody })[process.argv[2]]().catch((error) => {
  console.error(error);
  process.exit(1);
});
