// What goes on the wire and what comes back: headers, multipart part names and
// content types, base URL prefixes, answers of the wrong shape (named by
// field), and the request-level errors 64202 and 64302.

import busboy from 'busboy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, RcsApiError, ResponseShapeError } from '../../src/api/index.js';
import { Redaction } from '../../src/util/redaction.js';
import { formatViolation } from '../../src/contract/check.js';
import { DEFAULT_RETRY } from '../../src/api/retry.js';
import { createTransport, DEFAULT_TIMEOUTS } from '../../src/api/transport.js';
import { USER_AGENT } from '../../src/version.js';
import { BRAND, collect, MASTER_TOKEN, pngFile, rejection, startTestEmulator, type TestEmulator } from './helpers.js';
import { sendJson, startScriptedServer, type SeenRequest } from './scripted-server.js';

interface Part {
  name: string;
  value?: string;
  filename?: string;
  mimeType?: string;
  size?: number;
  /** The text of a part sent as application/json. */
  json?: string;
}

function parts(req: SeenRequest): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const out: Part[] = [];
    const bb = busboy({ headers: req.headers as Record<string, string> });
    bb.on('field', (name, value) => out.push({ name, value }));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const part: Part = { name, filename: info.filename, mimeType: info.mimeType, size: bytes.length };
        if (info.mimeType === 'application/json') part.json = bytes.toString('utf8');
        out.push(part);
      });
    });
    bb.on('close', () => resolve(out));
    bb.on('error', reject);
    bb.end(req.body);
  });
}

/** Part name → text value, or the content type of a file part. */
function byName(list: Part[] | undefined): Record<string, string | undefined> {
  return Object.fromEntries((list ?? []).map((p) => [p.name, p.value ?? p.mimeType]));
}

const ok = (result: unknown[]) => ({ code: '20000000', status: 200, desc: null, result });

describe('requests on the wire', () => {
  it('sends User-Agent, Bearer token, brand key and JSON content type; keeps a base URL path prefix', async () => {
    const server = await startScriptedServer((_req, res) => sendJson(res, 200, ok([{ autoReplyMsgId: 'ARM1' }])));
    const client = createClient({ baseUrl: `${server.url}/gateway/`, credentials: { token: MASTER_TOKEN } });
    try {
      await client.autoReplies.create(BRAND, { autoReplyMsgName: 'A', messagebaseId: 'SCS00000', body: { description: 'x' } });
      const req = server.seen[0] as SeenRequest;
      expect(req.method).toBe('POST');
      expect(req.url).toBe(`/gateway/api/1.1/brand/${BRAND.id}/autoreplymsg`);
      expect(req.headers['user-agent']).toBe(USER_AGENT);
      expect(USER_AGENT).toMatch(/^rcsctl\/\d+\.\d+\.\d+/);
      expect(req.headers.authorization).toBe(`Bearer ${MASTER_TOKEN}`);
      expect(req.headers['x-rcs-brandkey']).toBe(BRAND.key);
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body.toString())).toEqual({ autoReplyMsgName: 'A', messagebaseId: 'SCS00000', body: { description: 'x' } });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('sends multipart with the documented part names and content types', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.url.includes('/ag/1.2/file')) {
        sendJson(res, 200, { status: '200', data: { fileInfo: { fileId: 'F', usageType: 'send', mimeType: 'image/png', status: 'ready', expiryDate: '2027-11-22T00:00:00.000+09' } } });
      } else if (req.url.includes('/chatbot')) {
        sendJson(res, 200, ok([{ chatbotId: '0212345678', brandId: BRAND.id, subTitle: 'S', service: 'a2p', display: '01', inputField: 1, saftyStatusYn: 'Y', approvalResult: '승인대기' }]));
      } else if (req.url.includes('/logo')) {
        sendJson(res, 200, ok([{ fileId: 'BLG-1' }]));
      } else {
        sendJson(res, 200, ok([{ fileId: 'ARF1', url: 'https://x/y', fileName: 'a.png' }]));
      }
    });
    const client = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    const cert = { fileName: 'cert.pdf', bytes: new Uint8Array([37, 80, 68, 70]), contentType: 'application/pdf' };
    try {
      await client.autoReplies.uploadFile(BRAND, pngFile('a.png', 2, 2));
      await client.logos.create(BRAND, { name: 'Logo', description: 'Desc', file: pngFile('logo.png') });
      await client.logos.update(BRAND, 'BLG-1', { name: 'Logo', file: pngFile('logo.png') });
      await client.chatbots.create(BRAND, [{ mdn: '0212345678', subTitle: 'S' }], cert);
      await client.chatbots.update(BRAND, '0212345678', { mdn: '0212345678', subTitle: 'S' });
      await client.agencyFiles.register(BRAND, { fileId: 'F', usageType: 'send', mimeType: 'image/png', file: pngFile('f.png', 2, 2), messagebaseId: 'SCS00000' });

      const seen = await Promise.all(server.seen.map(parts));
      for (const req of server.seen) expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const [upload, logoCreate, logoUpdate, botCreate, botUpdate, agency] = seen;
      expect(upload).toEqual([{ name: 'file', filename: 'a.png', mimeType: 'image/png', size: expect.any(Number) }]);
      expect(byName(logoCreate)).toEqual({ name: 'Logo', description: 'Desc', file: 'image/png' });
      expect(byName(logoUpdate)).toEqual({ name: 'Logo', file: 'image/png' });
      expect(botCreate?.find((p) => p.name === 'subNumCertificate')).toMatchObject({ filename: 'cert.pdf', mimeType: 'application/pdf', size: 4 });
      // The JSON parts go out with Content-Type: application/json.
      const chatbotsPart = botCreate?.find((p) => p.name === 'chatbots');
      expect(chatbotsPart?.mimeType).toBe('application/json');
      expect(JSON.parse(chatbotsPart?.json ?? '')).toEqual({ chatbots: [{ mdn: '0212345678', subTitle: 'S' }] });
      expect(botUpdate?.map((p) => [p.name, p.mimeType])).toEqual([['chatbot', 'application/json']]);
      expect(JSON.parse(botUpdate?.[0]?.json ?? '')).toEqual({ mdn: '0212345678', subTitle: 'S' });
      expect(byName(agency)).toEqual({ fileId: 'F', usageType: 'send', mimeType: 'image/png', file: 'image/png', messagebaseId: 'SCS00000' });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('answers of the wrong shape', () => {
  it('names the field that does not match, instead of failing later', async () => {
    const answers: unknown[] = [
      ok([{ autoReplyMsgId: 'ARM1', autoReplyMsgName: 'A' }]),
      { code: '20000000', status: 200, desc: null, result: { not: 'an array' } },
      { code: '20000000', status: 200, desc: null, result: [{ chatbotId: '1', brandId: 'B', subTitle: 'S', service: 'a2p', display: '01', inputField: '1', saftyStatusYn: 'Y', approvalResult: '승인' }] },
      { code: '20000000', status: 200, desc: null, result: [] },
    ];
    const server = await startScriptedServer((_req, res) => sendJson(res, 200, answers.shift()));
    const client = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    try {
      const missing = await rejection(client.autoReplies.get(BRAND, 'ARM1'));
      expect(missing).toBeInstanceOf(ResponseShapeError);
      expect(missing).toMatchObject({ field: 'result[0].brandId', expected: 'a string', actual: 'nothing', code: 'E_API_SHAPE' });
      expect((missing as Error).message).toBe('get auto-reply (ARM1): unexpected response: result[0].brandId should be a string, got nothing');

      expect(await rejection(client.autoReplies.getFile(BRAND, 'F'))).toMatchObject({ field: 'result', expected: 'an array', actual: 'object' });
      expect(await rejection(client.chatbots.get(BRAND, '1'))).toMatchObject({ field: 'result[0].inputField', expected: 'a number', actual: 'string' });
      expect(await rejection(client.logos.get(BRAND, 'BLG'))).toMatchObject({ field: 'result', expected: 'an array of one object' });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('names the body when a success answer is not JSON, and keeps an HTML error page out of the code', async () => {
    const answers: [number, string][] = [
      [200, '<html>hello</html>'],
      [400, '<html>bad gateway config</html>'],
    ];
    const server = await startScriptedServer((_req, res) => {
      const [status, text] = answers.shift() ?? [500, ''];
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(text);
    });
    const client = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    try {
      expect(await rejection(collect(client.chatbots.list(BRAND)))).toMatchObject({ field: 'body', expected: 'JSON' });
      const err = await rejection(client.chatbots.get(BRAND, '1'));
      expect(err).toBeInstanceOf(RcsApiError);
      expect(err).toMatchObject({ httpStatus: 400, serviceCode: '', serviceMessage: '<html>bad gateway config</html>' });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('request errors from the emulator', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => {
    await emu.close();
  });

  it('maps 64202 (bad paging), 64303 (a body not declared JSON), 64301 (no body) and 64305 (no certificate), which the client itself never provokes', async () => {
    const transport = createTransport({ baseUrl: emu.url, concurrency: 2, insecureHttp: false, timeouts: DEFAULT_TIMEOUTS, retry: DEFAULT_RETRY, redactor: new Redaction() });
    transport.setTokenSource({ current: () => Promise.resolve(MASTER_TOKEN), expired: () => false });
    try {
      const paging = await rejection(transport.send({ method: 'GET', path: `/api/1.1/brand/${BRAND.id}/autoreplymsg`, query: { offset: 0, limit: 5000 } }));
      expect(paging).toMatchObject({ httpStatus: 400, serviceCode: '64202', serviceMessage: 'Invalid query parameter value (limit:5000)' });
      const { FormData } = await import('undici');
      const notJson = await rejection(
        transport.send({
          method: 'POST',
          path: `/api/1.1/brand/${BRAND.id}/autoreplymsg`,
          form: () => {
            const f = new FormData();
            f.append('autoReplyMsgName', 'x');
            return f;
          },
        }),
      );
      expect(notJson).toMatchObject({ httpStatus: 400, serviceCode: '64303', serviceMessage: 'Invalid type of Attribute (Content-Type: application/json)' });
      const empty = await rejection(transport.send({ method: 'POST', path: `/api/1.1/brand/${BRAND.id}/autoreplymsg` }));
      expect(empty).toMatchObject({ httpStatus: 400, serviceCode: '64301', serviceMessage: 'Missing Body data' });
      const noCertificate = await rejection(
        transport.send({
          method: 'POST',
          path: `/api/1.1/brand/${BRAND.id}/chatbot`,
          form: () => {
            const f = new FormData();
            f.append('chatbots', JSON.stringify({ chatbots: [{ mdn: '0277778888', subTitle: 'X' }] }));
            return f;
          },
        }),
      );
      expect(noCertificate).toMatchObject({ httpStatus: 400, serviceCode: '64305', serviceMessage: 'Missing Certification document' });
      // Each of these breaks the contract on purpose; the check names the operation and the field.
      expect((await emu.contract.clear()).map(formatViolation)).toEqual([
        'autoReply.create request: (body): Content-Type is "multipart/form-data", not application/json',
        'autoReply.create request: (body): Content-Type is "", not application/json',
        'chatbot.create request: part subNumCertificate: is required',
        'chatbot.create request: part chatbots: is sent as text/plain, not application/json',
      ]);
    } finally {
      await transport.close();
    }
  });
});
