// The lock key: every spelling of one base URL names one service, so it takes
// one lock (issue 35: `http://127.0.0.1:8080` and `http://127.0.0.1:8080/`
// took two, and nine applies of one brand ran side by side).

import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lockEndpoint } from '../../src/apply/lock-key.js';
import { lockPath } from '../../src/apply/lock.js';

describe('lock key', () => {
  it('is one endpoint for every spelling of a loopback base URL', () => {
    const spellings = ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/', 'HTTP://127.0.0.1:8080//', 'http://localhost:8080', 'http://LOCALHOST:8080/', 'http://[::1]:8080', ' http://127.0.0.1:8080 '];
    expect(new Set(spellings.map(lockEndpoint))).toEqual(new Set(['http://loopback:8080']));
    expect(new Set(spellings.map((u) => lockPath(tmpdir(), u, 'BR.a')))).toHaveProperty('size', 1);
  });

  it('writes the default port, lower-cases the host and keeps the path without trailing slashes', () => {
    expect(lockEndpoint('https://API.Example.com')).toBe('https://api.example.com:443');
    expect(lockEndpoint('https://api.example.com:443/')).toBe('https://api.example.com:443');
    expect(lockEndpoint('http://api.example.com/rcs/v1/')).toBe('http://api.example.com:80/rcs/v1');
    expect(lockEndpoint('https://api.example.com/rcs//v1?x=1#y')).toBe('https://api.example.com:443/rcs/v1');
  });

  it('keeps services apart: another host, port, scheme or path is another lock', () => {
    const keys = ['https://a.example.com', 'https://b.example.com', 'https://a.example.com:8443', 'http://a.example.com', 'https://a.example.com/tenant2'].map(lockEndpoint);
    expect(new Set(keys).size).toBe(keys.length);
    expect(lockPath(tmpdir(), 'https://a.example.com', 'BR.a')).not.toBe(lockPath(tmpdir(), 'https://a.example.com/tenant2', 'BR.a'));
  });
});
