import { KeyedSerializer } from '../../src/lib/keyed-serializer.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeyedSerializer', () => {
  it('runs jobs for one key one at a time, in order, and jobs for other keys alongside', async () => {
    const serial = new KeyedSerializer();
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([serial.run('a', job('a1', 30)), serial.run('a', job('a2', 1)), serial.run('b', job('b1', 1))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    // a2 never starts before a1 ends; b1 does not wait for a1.
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('goes on with the next job after one fails, and idle() waits for jobs added meanwhile', async () => {
    const serial = new KeyedSerializer();
    const done: string[] = [];
    const failed = serial.run('a', async () => {
      throw new Error('store down');
    });
    await expect(failed).rejects.toThrow('store down');
    void serial.run('a', async () => {
      await tick(5);
      void serial.run('a', async () => void done.push('second'));
      done.push('first');
    });
    await serial.idle();
    expect(done).toEqual(['first', 'second']);
    expect(serial.size).toBe(0);
  });

  it('runs a job held for several keys after the earlier jobs of each, and before the later ones', async () => {
    const serial = new KeyedSerializer();
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
    };
    await Promise.all([
      serial.run('a', job('a1', 20)),
      serial.run('b', job('b1', 5)),
      serial.runAll(['a', 'b', 'c'], job('slice', 10)),
      serial.run('b', job('b2', 1)),
      serial.run('d', job('d1', 1)),
    ]);
    expect(log.indexOf('start slice')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start slice')).toBeGreaterThan(log.indexOf('end b1'));
    expect(log.indexOf('start b2')).toBeGreaterThan(log.indexOf('end slice'));
    expect(log.indexOf('end d1')).toBeLessThan(log.indexOf('start slice'));
    expect(serial.size).toBe(0);
  });
});
