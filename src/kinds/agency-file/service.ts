// Agency files and the service: there is no list, so only the fileIds the
// manifests name are read; registration is idempotent by the user-chosen fileId.

import { isServiceError, OutcomeUnknownError, type BrandRef, type RcsClient } from '../../api/index.js';
import type { AgencyFileInfo } from '../../contract/wire.js';
import type { Step } from '../../core/step.js';
import { mapLimit } from '../../util/concurrency.js';
import { readChecked, requestOf, stepFileOf } from '../apply-helpers.js';
import type { Handler, KindReader, Reread } from '../resource-kind.js';
import { AGENCY_ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked". */
export const AGENCY_FILE_CODES = { alreadyRegistered: AGENCY_ERRORS.fileAlreadyRegistered.code } as const;

/** Reads the agency files the manifests name; `null` when the service does not know one. */
export const agencyFileReader: KindReader<Map<string, AgencyFileInfo | null>> = {
  list: async (env) => {
    const ids = [...(env.desired?.agencyFiles.keys() ?? [])];
    const infos = await mapLimit(ids, env.concurrency, (id) => env.client.agencyFiles.get(env.brand, id));
    return new Map(ids.map((id, i) => [id, infos[i] ?? null]));
  },
};

/** One agency file again. */
export async function rereadAgencyFile(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<AgencyFileInfo> | undefined> {
  const info = await client.agencyFiles.get(brand, id);
  return info === undefined ? undefined : { live: info, ctx: { liveName: () => undefined } };
}

/** The agency file handlers: register only (the service cannot change one). */
export const agencyFileHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<{ fileId: string; usageType: string; mimeType: string; messagebaseId?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    try {
      const info = await env.client.agencyFiles.register(env.brand, { ...req, file });
      return { id: info.fileId };
    } catch (err) {
      // A lost answer, or a registration an earlier run already made: the fileId is ours.
      if (err instanceof OutcomeUnknownError || isServiceError(err, AGENCY_FILE_CODES.alreadyRegistered)) {
        const info = await env.client.agencyFiles.get(env.brand, req.fileId);
        if (info !== undefined) return { id: info.fileId, note: 'already registered' };
      }
      throw err;
    }
  },
};
