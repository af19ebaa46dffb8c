/**
 * What a service answers when it did something: the data the contract describes, the message the
 * screen shows (the spec's wording), and whether something new was created. Routes send it as
 * `{ data, message }` (201 when created); the idempotency record stores exactly that, so a retry
 * is answered as the first attempt was.
 */
export interface Outcome<T = unknown> {
  data: T;
  message?: string;
  created?: boolean;
  /** Accepted, not yet done: a change waiting for a second staff member (202, ADR 023). */
  accepted?: boolean;
}

/** The stored form of an outcome: the status and body a retry is answered with. */
export interface StoredOutcome {
  status: number;
  body: { data: unknown; message?: string };
}

export function storedOutcome(outcome: Outcome): StoredOutcome {
  return {
    status: outcome.accepted ? 202 : outcome.created ? 201 : 200,
    body: outcome.message === undefined ? { data: outcome.data } : { data: outcome.data, message: outcome.message },
  };
}
