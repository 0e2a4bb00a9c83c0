// An approval client that gives the same answer to every request (`tool-exec --approve allow|deny`).
import type { ApprovalAnswer, ApprovalClient } from '../../executor/ports/approvalClient';

export class FixedApprovalClient implements ApprovalClient {
  constructor(private readonly answer: ApprovalAnswer) {}

  requestApproval(): Promise<ApprovalAnswer> {
    return Promise.resolve(this.answer);
  }
}
