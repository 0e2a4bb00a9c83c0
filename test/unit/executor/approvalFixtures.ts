// Approval clients for tests.
import type { ApprovalAnswer, ApprovalClient } from '../../../src/executor/ports/approvalClient';

export class FixedAnswer implements ApprovalClient {
  calls = 0;
  constructor(private readonly answer: ApprovalAnswer) {}
  requestApproval(): Promise<ApprovalAnswer> {
    this.calls += 1;
    return Promise.resolve(this.answer);
  }
}
