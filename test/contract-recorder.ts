// Every exchange with an emulator started through the test helpers is checked
// against the contract (src/contract): each request the client sends and each
// answer the emulator gives. Closing the emulator fails with every violation,
// named by operation, side and field. Where the client's requests are checked,
// a request to an operation the contract does not know is a violation too: the
// contract covers all of rcsctl's traffic, not only the operations listed so far.

import { checkExchange, formatViolation, precompileContract, type Exchange, type Violation } from '../src/contract/check.js';
import { findOperation } from '../src/contract/operations.js';
import type { EmulatorOptions, RunningEmulator } from '../src/emulator/index.js';

/** The violations seen on one emulator. */
export class ContractRecorder {
  readonly violations: Violation[] = [];
  private readonly pending: Promise<void>[] = [];

  /** `sides`: what to check; the emulator's own tests send bad requests on purpose and check answers only. */
  constructor(private readonly sides: { request: boolean; answer: boolean } = { request: true, answer: true }) {}

  /** The hook to pass as the emulator's `onExchange`. */
  readonly onExchange = (x: Exchange): void => {
    if (this.sides.request && findOperation(x.method, x.path) === undefined && !outsideTheService(x.path)) {
      this.violations.push({ operation: `${x.method} ${x.path}`, side: 'request', field: '(operation)', problem: 'is not in the contract (src/contract/operations.ts)' });
      return;
    }
    // Checked on a later turn, so the check (ajv compiles on first use) never slows the emulator's answers.
    this.pending.push(
      new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => checkExchange(x, this.sides))
        .then((v) => {
        this.violations.push(...v);
      }),
    );
  };

  /** Wait for every check started so far. */
  async settled(): Promise<Violation[]> {
    await Promise.all(this.pending.splice(0));
    return this.violations;
  }

  /** Forget what was seen (for a test that breaks the contract on purpose). */
  async clear(): Promise<Violation[]> {
    const seen = [...(await this.settled())];
    this.violations.length = 0;
    return seen;
  }

  /** Throw when anything broke the contract. */
  async assertClean(): Promise<void> {
    const v = await this.settled();
    if (v.length > 0) throw new Error(`the service contract was broken ${v.length} time(s):\n${v.slice(0, 20).map(formatViolation).join('\n')}`);
  }
}

/** The emulator's admin API and its image downloads (the URLs answers hand out) are not the service's interface. */
function outsideTheService(path: string): boolean {
  return path.startsWith('/_emulator/') || path.startsWith('/files/');
}

const recorders = new WeakMap<object, ContractRecorder>();

/** Emulator options with a fresh recorder attached; `adopt` ties it to the started emulator. */
export function withContract(
  opts: EmulatorOptions,
  sides?: { request: boolean; answer: boolean },
): { opts: EmulatorOptions; adopt: (emu: RunningEmulator) => RunningEmulator } {
  precompileContract();
  const recorder = new ContractRecorder(sides);
  return {
    opts: { ...opts, onExchange: recorder.onExchange },
    adopt(emu) {
      recorders.set(emu, recorder);
      const close = emu.close.bind(emu);
      let closing: Promise<void> | undefined;
      emu.close = () =>
        (closing ??= (async () => {
          await close();
          await recorder.assertClean();
        })());
      return emu;
    },
  };
}

/** The recorder of an emulator started with `withContract`. */
export function contractOf(emu: object): ContractRecorder {
  const r = recorders.get(emu);
  if (r === undefined) throw new Error('this emulator was not started with a contract recorder');
  return r;
}
