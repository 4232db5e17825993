import type { HostCallErrorCode } from './abi';

/** A host function's refusal, answered to the guest as `{ ok: false, error: { code, message, hint } }`. */
export class HostCallError extends Error {
  constructor(
    readonly code: HostCallErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'HostCallError';
  }

  toJSON(): { code: HostCallErrorCode; message: string; hint: string } {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}
