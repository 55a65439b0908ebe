// The bare reader: the reads a plan makes (every page of the auto-reply list,
// then every detail, `concurrency` at a time) with nothing but an undici Pool.
// Run as its own process next to rcsctl, it is what the machine and the
// emulator allow at this moment: rcsctl's time over its time is the client's cost.
//
//   node dist/bench/bare-reader.js URL TOKEN BRAND CONCURRENCY

import { Pool } from 'undici';

/** Read the list and every detail; returns how many details were read. */
export async function bareRead(url: string, token: string, brand: string, concurrency: number): Promise<number> {
  const pool = new Pool(url, { connections: concurrency });
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path: string): Promise<unknown> => (await pool.request({ method: 'GET', path, headers })).body.json();
  type Page = { result: { autoReplyMsgId: string }[] | null; pagination?: { total?: number } };
  try {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = (await get(`/api/1.1/brand/${brand}/autoreplymsg?offset=${offset}&limit=1000`)) as Page;
      const items = page.result ?? [];
      ids.push(...items.map((i) => i.autoReplyMsgId));
      if (items.length < 1000) break;
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) await get(`/api/1.1/brand/${brand}/autoreplymsg/${ids[next++] as string}`);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return ids.length;
  } finally {
    await pool.close();
  }
}

if (process.argv[1]?.endsWith('bare-reader.js') === true) {
  const [url, token, brand, c] = process.argv.slice(2);
  await bareRead(url as string, token as string, brand as string, Number(c ?? 8));
}
