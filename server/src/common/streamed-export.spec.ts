import { createServer, get, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { csvRow } from './csv';
import { ExportFormat, isoDate, sendExport } from './streamed-export';

interface Row {
  id: number;
  name: string;
}

/** A real HTTP server whose one route streams `batches` through sendExport, and what happened meanwhile. */
async function exportOver(format: ExportFormat, batches: Row[][]) {
  const events: string[] = [];
  const rows = async function* () {
    for (const [i, batch] of batches.entries()) {
      events.push(`batch ${i}`);
      // Another request's work, queued while this batch is sent: it must run before the next batch is read.
      setImmediate(() => events.push(`other ${i}`));
      yield batch;
    }
  };
  const server: Server = createServer((_request, response) => {
    void sendExport(response as unknown as Response, {
      name: 'things_2026-11-25',
      format,
      columns: ['id', 'name'],
      batches: rows(),
      csvLine: (row) => csvRow([row.id, row.name]),
      jsonText: (row) => JSON.stringify({ ...row, shown: true }),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const answer = await new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) =>
    get({ host: '127.0.0.1', port, path: '/' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ headers: response.headers, body }));
    }).on('error', reject),
  );
  server.close();
  return { ...answer, events };
}

describe('sendExport', () => {
  const batches = [
    [
      { id: 1, name: 'one' },
      { id: 2, name: '=cmd' },
    ],
    [{ id: 3, name: 'three, with a comma' }],
  ];

  it('streams CSV with the header, neutralised formulas and quoting, as a named download', async () => {
    const { headers, body } = await exportOver('csv', batches);
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(headers['content-disposition']).toBe('attachment; filename="things_2026-11-25.csv"');
    expect(headers['cache-control']).toBe('no-store');
    expect(body).toBe(`id,name\r\n1,one\r\n2,'=cmd\r\n3,"three, with a comma"\r\n`);
  });

  it('streams one JSON array, empty or not', async () => {
    expect(JSON.parse((await exportOver('json', batches)).body)).toEqual([
      { id: 1, name: 'one', shown: true },
      { id: 2, name: '=cmd', shown: true },
      { id: 3, name: 'three, with a comma', shown: true },
    ]);
    expect(JSON.parse((await exportOver('json', [])).body)).toEqual([]);
  });

  it('gives the event loop a turn between batches, so other requests are served while it runs', async () => {
    const { events } = await exportOver('csv', [[{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }], [{ id: 3, name: 'c' }]]);
    expect(events).toEqual(['batch 0', 'other 0', 'batch 1', 'other 1', 'batch 2', 'other 2']);
  });

  it("writes raw rows' dates as ISO 8601, from either engine", () => {
    expect(isoDate(new Date('2026-11-25T10:00:00.123Z'))).toBe('2026-11-25T10:00:00.123Z');
    expect(isoDate('2026-11-25 10:00:00.123')).toBe('2026-11-25T10:00:00.123Z');
    expect(isoDate('2026-11-25 10:00:00')).toBe('2026-11-25T10:00:00.000Z');
    expect(isoDate(null)).toBeNull();
  });
});
