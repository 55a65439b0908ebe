// The checks a seed is read with (src/emulator/seed.ts) and the seeded file's
// shape, shared with the route modules that check their own seed section
// (src/emulator/module.ts): every failure names the seed and the field.

import { RcsctlError } from '../errors.js';

/** A seeded file (auto-reply files, logos, brand images): bytes as base64 `content`, or only a name (empty bytes). */
export interface SeedFile {
  fileId?: string;
  fileName: string;
  content?: string;
}

/** Field checks that throw E_SEED naming the source and the field path. */
export class SeedChecker {
  constructor(private readonly source: string) {}

  /** Fail: the field at `path` is wrong, and why. */
  bad(path: string, why: string): never {
    throw new RcsctlError('E_SEED', `${this.source}: ${path || '(root)'} ${why}`, { field: path });
  }

  /** `v` as a mapping, or fail. */
  object(v: unknown, path: string): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.bad(path, 'must be a mapping');
    return v as Record<string, unknown>;
  }

  /** `v` as a list, or fail. */
  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.bad(path, 'must be a list');
    return v;
  }

  /** `o[key]` is present and of `type`, or fail. */
  required(o: Record<string, unknown>, key: string, type: string, prefix = ''): void {
    const path = prefix ? `${prefix}.${key}` : key;
    if (o[key] === undefined || o[key] === null) this.bad(path, 'is required');
    if (typeof o[key] !== type) this.bad(path, `must be a ${type}`);
  }

  /** `o[key]` is absent or of `type`, or fail. */
  optional(o: Record<string, unknown>, key: string, type: string, prefix = ''): void {
    if (o[key] !== undefined && typeof o[key] !== type) this.bad(prefix ? `${prefix}.${key}` : key, `must be a ${type}`);
  }

  /** `v` is one of `allowed`, or fail. */
  enumOf(v: unknown, allowed: readonly unknown[], path: string): void {
    if (!allowed.includes(v)) this.bad(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
  }
}
