// Last line of defence: whatever the CLI prints passes through here, and any
// credential found in the environment is replaced. The transport redacts too.

const SECRET_VARS = ['RCSCTL_TOKEN', 'RCSCTL_CLIENT_SECRET'];

/** Replace every credential value from `env` (and `extra`) in `text` with `[redacted]`. */
export function redactSecrets(text: string, env: Record<string, string | undefined>, extra: string[] = []): string {
  let out = text;
  const secrets = [...SECRET_VARS.map((n) => env[n]), ...extra].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1[redacted]');
}
