// A small XML well-formedness checker for the JUnit output (no XML parser is a
// dependency): balanced tags, quoted attributes, only known entities, comments; returns
// the testcases with whether they failed and their text.

/** One testcase of a JUnit document. */
export interface JunitCase {
  classname: string;
  name: string;
  failed: boolean;
  errored: boolean;
  body: string;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

/** Check `xml` is well-formed JUnit and return its testcases; throws with the reason otherwise. */
export function checkJunit(xml: string): JunitCase[] {
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')) throw new Error('no XML declaration');
  const body = xml.slice(xml.indexOf('?>') + 2);
  const stack: string[] = [];
  const cases: JunitCase[] = [];
  let current: JunitCase | undefined;
  let roots = 0;
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<!--[\s\S]*?-->)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < body.length) {
    token.lastIndex = pos;
    m = token.exec(body);
    if (m === null) throw new Error(`not well-formed at ${pos}: ${JSON.stringify(body.slice(pos, pos + 60))}`);
    pos = token.lastIndex;
    const [, close, name, attrs, selfClose, text, comment] = m;
    // A comment (the run's requests): well-formed, but not one that could close it early.
    if (comment !== undefined) {
      if (comment.slice(4, -3).includes('--')) throw new Error(`"--" inside a comment: ${JSON.stringify(comment.slice(0, 60))}`);
      continue;
    }
    if (text !== undefined) {
      if (/&/.test(text.replace(ENTITY, ''))) throw new Error(`bare & in ${JSON.stringify(text.slice(0, 60))}`);
      if (stack.length === 0 && text.trim() !== '') throw new Error('text outside the root');
      if (current !== undefined) current.body += decode(text);
      continue;
    }
    if ((attrs ?? '').replace(ENTITY, '').includes('&')) throw new Error(`bare & in attributes of ${name}`);
    const attr = (k: string) => decode(new RegExp(`\\s${k}="([^"]*)"`).exec(attrs ?? '')?.[1] ?? '');
    if (close === '/') {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
      if (name === 'testcase') current = undefined;
      continue;
    }
    if (stack.length === 0) roots++;
    if (name === 'testcase') {
      current = { classname: attr('classname'), name: attr('name'), failed: false, errored: false, body: '' };
      cases.push(current);
    }
    if (name === 'failure' && current) current.failed = true;
    if (name === 'error' && current) current.errored = true;
    if (selfClose === '/') {
      if (name === 'testcase') current = undefined;
    } else stack.push(name as string);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return cases;
}

function decode(s: string): string {
  return s.replace(ENTITY, (e, n: string) =>
    n === 'amp' ? '&' : n === 'lt' ? '<' : n === 'gt' ? '>' : n === 'quot' ? '"' : n === 'apos' ? "'" : String.fromCodePoint(n.startsWith('#x') ? parseInt(n.slice(2), 16) : parseInt(n.slice(1), 10)),
  );
}
