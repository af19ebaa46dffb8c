import { assert } from './errors';

/**
 * Many small calls sharing round trips (the group commit of a lookup): a call goes out at once while
 * fewer than `inFlight` batches are out; otherwise it waits, and every call that arrived meanwhile
 * goes out together in one call of `run` (at most `max` at a time) as soon as one comes back. A lone
 * call waits for nothing; under load, one round trip answers many. `run` answers one result per
 * input, in the inputs' order; if it fails, every call of that batch fails with its error. At most
 * `waitingMax` calls wait: past that (the database stalled, or more load than it can answer) a call
 * fails at once with `refuse()`'s error instead of queueing without end.
 */
export function batched<In, Out>(
  run: (inputs: In[]) => Promise<Out[]>,
  options: { inFlight: number; max: number; waitingMax: number; refuse: () => Error },
): (input: In) => Promise<Out> {
  assert(options.inFlight >= 1 && options.max >= 1 && options.waitingMax >= 1, 'a batch in flight, a call per batch and a waiting call at least');
  const waiting: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  let out = 0;
  const send = () => {
    while (out < options.inFlight && waiting.length > 0) {
      const batch = waiting.splice(0, options.max);
      out += 1;
      Promise.resolve()
        .then(() => run(batch.map((call) => call.input)))
        .then((results) => {
          assert(results.length === batch.length, 'one result per input');
          batch.forEach((call, index) => call.resolve(results[index] as Out));
        })
        .catch((error: unknown) => batch.forEach((call) => call.reject(error)))
        .finally(() => {
          out -= 1;
          send();
        });
    }
  };
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      if (waiting.length >= options.waitingMax) {
        reject(options.refuse());
        return;
      }
      waiting.push({ input, resolve, reject });
      send();
    });
}
