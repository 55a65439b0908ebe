// The bare reader: the reads a plan makes (every page of the auto-reply list,
// and every detail, `concurrency` at a time, each detail read starting as soon
// as its page has arrived, as rcsctl does) with nothing but an undici Pool.
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
    let listed = false;
    let next = 0;
    const waiting: (() => void)[] = [];
    const wake = (): void => {
      for (const w of waiting.splice(0)) w();
    };
    const list = async (): Promise<void> => {
      for (let offset = 0; ; offset += 1000) {
        const page = (await get(`/api/1.1/brand/${brand}/autoreplymsg?offset=${offset}&limit=1000`)) as Page;
        const items = page.result ?? [];
        ids.push(...items.map((i) => i.autoReplyMsgId));
        wake();
        if (items.length < 1000) break;
      }
      listed = true;
      wake();
    };
    // Workers wait for the next page while the list is being read.
    const worker = async (): Promise<void> => {
      for (;;) {
        if (next < ids.length) await get(`/api/1.1/brand/${brand}/autoreplymsg/${ids[next++] as string}`);
        else if (listed) return;
        else await new Promise<void>((resolve) => waiting.push(resolve));
      }
    };
    await Promise.all([list(), ...Array.from({ length: concurrency }, worker)]);
    return ids.length;
  } finally {
    await pool.close();
  }
}

if (process.argv[1]?.endsWith('bare-reader.js') === true) {
  const [url, token, brand, c] = process.argv.slice(2);
  await bareRead(url as string, token as string, brand as string, Number(c ?? 8));
}
