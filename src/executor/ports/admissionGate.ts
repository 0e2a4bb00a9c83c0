// Port: the process-wide gate that model requests made inside tools queue at (spec §3.7 pausable deadline).

export interface AdmissionGate {
  /** Waits for a slot; resolves with its release. Rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<() => void>;
}
