import { describe, expect, it } from 'vitest';
import { batched } from '../../src/server/lib/batched';

/** A `run` that answers when told to, and remembers what each call was given. */
function controlledRun() {
  const calls: { inputs: number[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ inputs, answer: () => resolve(inputs.map((input) => `answer ${input}`)), fail: reject });
    });
  return { calls, run };
}
const refuse = () => new Error('too many waiting');
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('batched calls', () => {
  it('sends a lone call at once, and what arrives while it is out together next, each answered its own result', async () => {
    const { calls, run } = controlledRun();
    const call = batched(run, { inFlight: 1, max: 100, waitingMax: 100, refuse });
    const first = call(1);
    await settle();
    expect(calls.map((one) => one.inputs)).toEqual([[1]]);
    const later = [call(2), call(3), call(4)];
    await settle();
    expect(calls).toHaveLength(1);
    calls[0]?.answer();
    expect(await first).toBe('answer 1');
    await settle();
    expect(calls.map((one) => one.inputs)).toEqual([[1], [2, 3, 4]]);
    calls[1]?.answer();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3', 'answer 4']);
  });

  it('keeps up to inFlight batches out and at most max calls in one', async () => {
    const { calls, run } = controlledRun();
    const call = batched(run, { inFlight: 2, max: 2, waitingMax: 100, refuse });
    const all = [1, 2, 3, 4, 5, 6].map((input) => call(input));
    await settle();
    expect(calls.map((one) => one.inputs)).toEqual([[1], [2]]);
    calls[1]?.answer();
    await settle();
    expect(calls.map((one) => one.inputs)).toEqual([[1], [2], [3, 4]]);
    calls[0]?.answer();
    calls[2]?.answer();
    await settle();
    expect(calls.map((one) => one.inputs)).toEqual([[1], [2], [3, 4], [5, 6]]);
    calls[3]?.answer();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6].map((input) => `answer ${input}`));
  });

  it('fails every call of a failed batch, and goes on with the next', async () => {
    const { calls, run } = controlledRun();
    const call = batched(run, { inFlight: 1, max: 100, waitingMax: 100, refuse });
    const first = call(1);
    const second = [call(2), call(3)];
    await settle();
    calls[0]?.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    calls[1]?.fail(new Error('still down'));
    for (const one of second) await expect(one).rejects.toThrow('still down');
    const third = call(4);
    await settle();
    calls[2]?.answer();
    expect(await third).toBe('answer 4');
  });

  it('fails the batch when run answers the wrong number of results, not leaving calls waiting', async () => {
    const call = batched(async (inputs: number[]) => inputs.slice(1), { inFlight: 1, max: 100, waitingMax: 100, refuse });
    await expect(call(1)).rejects.toThrow();
  });

  it('refuses a call at once while waitingMax calls wait, and takes calls again once they have gone out', async () => {
    const { calls, run } = controlledRun();
    const call = batched(run, { inFlight: 1, max: 2, waitingMax: 3, refuse });
    const first = call(1);
    await settle();
    const waiting = [call(2), call(3), call(4)];
    await expect(call(5)).rejects.toThrow('too many waiting');
    expect(calls.map((one) => one.inputs)).toEqual([[1]]);
    calls[0]?.answer();
    await settle();
    // [2, 3] went out; one waits, so two more may wait.
    const later = [call(6), call(7)];
    await expect(call(8)).rejects.toThrow('too many waiting');
    calls[1]?.answer();
    await settle();
    calls[2]?.answer();
    await settle();
    calls[3]?.answer();
    expect(await Promise.all([first, ...waiting, ...later])).toEqual([1, 2, 3, 4, 6, 7].map((input) => `answer ${input}`));
    expect(calls.map((one) => one.inputs)).toEqual([[1], [2, 3], [4, 6], [7]]);
  });
});
