// What a run cost the account's rate limit: the requests it made (every
// attempt, retries and the token request included) and how many of them the
// service answered 429. Counted from the client's attempt observer
// (client.observe); every summary gives it (issue 38, "Cost").

/** The requests a run made, and how many were answered 429. */
export interface RequestCount {
  requests: number;
  rateLimited: number;
}

/** `57 requests, 2 answered 429`. */
export function requestsText(c: RequestCount): string {
  return `${c.requests} request${c.requests === 1 ? '' : 's'}, ${c.rateLimited} answered 429`;
}

/** The counts of several runs (shards) added up; undefined when none counted. */
export function addRequests(counts: (RequestCount | undefined)[]): RequestCount | undefined {
  const given = counts.filter((c): c is RequestCount => c !== undefined);
  if (given.length === 0) return undefined;
  return { requests: given.reduce((n, c) => n + c.requests, 0), rateLimited: given.reduce((n, c) => n + c.rateLimited, 0) };
}
