// A webhook receiver for the messaging tests: records every call (path, JSON
// body, arrival time) and answers with a status the test chooses per call.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received call. */
export interface Received {
  path: string;
  body: any;
  at: number;
  authorization: string | undefined;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  calls: Received[];
  /** The status of the next answers, by call index (default 200). */
  answer: (call: Received, index: number) => number;
  /** Calls whose path is `path` (or starts with it, for `prefix`). */
  on(path: string, prefix?: boolean): Received[];
  /** Wait until `check` holds, or fail after `ms`. */
  until<T>(check: () => T | undefined | false, ms?: number): Promise<T>;
  close(): Promise<void>;
}

/** Start a receiver on 127.0.0.1, any free port. */
export async function startReceiver(): Promise<Receiver> {
  const calls: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: Received = { path: req.url ?? '/', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), at: performance.now(), authorization: req.headers.authorization };
      calls.push(call);
      res.writeHead(receiver.answer(call, calls.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    answer: () => 200,
    on: (path, prefix = false) => calls.filter((c) => (prefix ? c.path.startsWith(path) : c.path === path)),
    async until(check, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const v = check();
        if (v !== undefined && v !== false) return v;
        if (Date.now() > deadline) throw new Error(`receiver: timed out; calls so far: ${JSON.stringify(calls.map((c) => c.path))}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
