// The transport's redactor. It knows every secret the client has held (the
// ready token, the client secret, every token issued since) and scrubs them
// from anything the client writes or puts in an error. Secrets live only in
// closures, never on an object property, so util.inspect and JSON.stringify of
// a client cannot reach them either.

/** Redaction marker, the same one the CLI uses. */
export const REDACTED = '[redacted]';

/** Scrubs known secrets (and any Bearer credential) out of text. */
export interface Redactor {
  /** Remember a secret; short strings are ignored, they would mangle unrelated text. */
  add(secret: string): void;
  /** `text` with every known secret and every `Bearer <x>` replaced. */
  apply(text: string): string;
}

/** A fresh redactor with no secrets yet. */
export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  return {
    add(secret) {
      if (secret.length >= 4) secrets.add(secret);
    },
    apply(text) {
      let out = text;
      for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`);
    },
  };
}
