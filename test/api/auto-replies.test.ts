// Auto-replies and their files, every client method against the emulator, and
// the errors this family can produce.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError, isServiceError } from '../../src/api/index.js';
import type { AutoReplyRequest } from '../../src/api/index.js';
import { BRAND, collect, pngFile, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const hours: AutoReplyRequest = {
  autoReplyMsgName: 'Opening hours',
  messagebaseId: 'SCS00000',
  body: { description: 'Mon-Fri 9-18' },
  buttons: [{ suggestions: [{ action: { displayText: 'Map', postback: { data: '' }, urlAction: { openUrl: { url: 'https://example.com/map' } } } }] }],
};

function apiError(err: unknown): RcsApiError {
  expect(err).toBeInstanceOf(RcsApiError);
  return err as RcsApiError;
}

describe('auto-replies', () => {
  it('creates, reads, lists, updates and deletes an auto-reply', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, hours);
    expect(id).toMatch(/^ARM/);

    const detail = await client.autoReplies.get(BRAND, id);
    expect(detail).toMatchObject({ autoReplyMsgId: id, autoReplyMsgName: 'Opening hours', messagebaseId: 'SCS00000', copyAllowed: true });
    expect(detail.body).toEqual({ description: 'Mon-Fri 9-18' });
    expect(detail.buttons?.[0]?.suggestions?.[0]?.action?.postback?.data).toMatch(/^postbackId=.+;;$/);

    const listed = await collect(client.autoReplies.list(BRAND));
    expect(listed.map((a) => a.autoReplyMsgId)).toContain(id);

    const updated = await client.autoReplies.update(BRAND, id, { ...hours, body: { description: 'Mon-Sat 9-18' } });
    expect(updated).toEqual({ autoReplyMsgId: id });
    expect((await client.autoReplies.get(BRAND, id)).body.description).toBe('Mon-Sat 9-18');

    await client.autoReplies.delete(BRAND, id, 'Opening hours');
    const gone = apiError(await rejection(client.autoReplies.get(BRAND, id)));
    expect(gone.serviceCode).toBe('64108');
  });

  it('uploads a file and reads it back, then uses it as media', async () => {
    const client = emu.client();
    const file = await client.autoReplies.uploadFile(BRAND, pngFile('hero-0123456789ab.png', 40, 30));
    expect(file.fileName).toBe('hero-0123456789ab.png');
    expect(file.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(await client.autoReplies.getFile(BRAND, file.fileId)).toEqual(file);
    const res = await fetch(file.url);
    expect(Buffer.from(await res.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    const { autoReplyMsgId } = await client.autoReplies.create(BRAND, {
      autoReplyMsgName: 'Card',
      messagebaseId: 'SCwThM00',
      body: { title: 'Hi', description: 'Card text', media: file.fileId },
    });
    expect((await client.autoReplies.get(BRAND, autoReplyMsgId)).body.media).toBe(file.fileId);
  });

  it('names the entity, status, code and message in errors', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, { ...hours, autoReplyMsgName: 'Frozen' });
    await emu.admin('POST', '/state', { kind: 'autoReply', brandId: BRAND.id, id, approvalResult: '처리중' });

    const upd = apiError(await rejection(client.autoReplies.update(BRAND, id, { ...hours, autoReplyMsgName: 'Frozen', body: { description: 'x' } })));
    expect(upd.message).toBe(`update auto-reply "Frozen" (${id}) failed: 400 64328 Not allowed modification`);
    expect(upd).toMatchObject({ httpStatus: 400, serviceCode: '64328', serviceMessage: 'Not allowed modification', method: 'PUT', entity: `auto-reply "Frozen" (${id})` });
    expect(upd.path).toBe(`/api/1.1/brand/${BRAND.id}/autoreplymsg/${id}`);
    expect(upd.code).toBe('E_API');

    const del = apiError(await rejection(client.autoReplies.delete(BRAND, id, 'Frozen')));
    expect(del.message).toBe(`delete auto-reply "Frozen" (${id}) failed: 400 64327 Not allowed delete`);
  });

  it('maps 64336 (required value), 64303 (type) and 64304 (size)', async () => {
    const client = emu.client();
    const missing = apiError(await rejection(client.autoReplies.create(BRAND, { ...hours, autoReplyMsgName: undefined as unknown as string })));
    expect(missing.serviceCode).toBe('64336');
    expect(missing.serviceMessage).toBe('required value: [autoReplyMsgName]');

    const wrongType = apiError(await rejection(client.autoReplies.create(BRAND, { ...hours, copyAllowed: 'yes' as unknown as boolean })));
    expect([wrongType.httpStatus, wrongType.serviceCode]).toEqual([400, '64303']);

    const tooLong = apiError(await rejection(client.autoReplies.create(BRAND, { ...hours, autoReplyMsgName: 'x'.repeat(101) })));
    expect([tooLong.httpStatus, tooLong.serviceCode]).toEqual([400, '64304']);
    // These requests break the contract on purpose, and the check says so.
    expect((await emu.contract.clear()).map((v) => `${v.operation} ${v.field}`)).toEqual([
      'autoReply.create autoReplyMsgName',
      'autoReply.create copyAllowed',
      'autoReply.create autoReplyMsgName',
    ]);
  });

  it('maps 64323 (No changes) on a first attempt to an error', async () => {
    const client = emu.client();
    const { autoReplyMsgId: id } = await client.autoReplies.create(BRAND, { ...hours, autoReplyMsgName: 'Same' });
    const err = await rejection(client.autoReplies.update(BRAND, id, { ...hours, autoReplyMsgName: 'Same' }));
    expect(isServiceError(err, '64323')).toBe(true);
    expect(client.stats.retries).toBe(0);
  });

  it('maps 64108 and 64109 (unknown ids on the path)', async () => {
    const client = emu.client();
    expect(apiError(await rejection(client.autoReplies.get(BRAND, 'ARM999999999999'))).serviceCode).toBe('64108');
    expect(apiError(await rejection(client.autoReplies.delete(BRAND, 'ARM999999999999'))).message).toBe(
      'delete auto-reply (ARM999999999999) failed: 400 64108 Invalid autoReplyMsgId on path parameter',
    );
    expect(apiError(await rejection(client.autoReplies.getFile(BRAND, 'ARF999999999999'))).serviceCode).toBe('64109');
  });

  it('maps 64355 (file extension) and 64395 (file size)', async () => {
    const client = emu.client();
    const ext = apiError(await rejection(client.autoReplies.uploadFile(BRAND, { fileName: 'notes.txt', bytes: new Uint8Array([1, 2, 3]), contentType: 'text/plain' })));
    expect(ext.serviceCode).toBe('64355');
    const big = apiError(
      await rejection(client.autoReplies.uploadFile(BRAND, { fileName: 'big.png', bytes: new Uint8Array(1024 * 1024 + 1), contentType: 'image/png' })),
    );
    expect([big.serviceCode, big.serviceMessage]).toEqual(['64395', 'file is up to 1Mb']);
  });

  it('maps 64375 (a reply link to an unknown auto-reply)', async () => {
    const client = emu.client();
    const err = apiError(
      await rejection(
        client.autoReplies.create(BRAND, {
          ...hours,
          autoReplyMsgName: 'Linked',
          chipList: [{ reply: { autoReplyMsgId: 'ARM999999999999', displayText: 'More', postback: { data: '' } } }],
        }),
      ),
    );
    expect(err.serviceCode).toBe('64375');
  });
});
