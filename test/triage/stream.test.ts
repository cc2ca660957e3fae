import { triageStream, triageText } from '../../src/triage/index.js';

async function* repeat(line: string, times: number, then: string[] = []): AsyncGenerator<Buffer> {
  const block = Buffer.from(line.repeat(1000));
  for (let i = 0; i < times / 1000; i++) yield block;
  for (const extra of then) yield Buffer.from(extra);
}

describe('triage of unusual input', () => {
  it('answers for an empty log with no error and no snippet', async () => {
    const r = await triageStream((async function* () {})());
    expect(r).toMatchObject({ firstError: null, category: 'other', lineCount: 0, bytes: 0, snippet: '', decidedBy: 'none', strength: -1 });
    expect(triageText('').firstError).toBeNull();
  });

  it('flags binary input and still finds an error line inside it', async () => {
    const garbage = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256));
    const r = await triageStream((async function* () {
      yield garbage;
      yield Buffer.from('\nImportError: libcudnn.so.9: cannot open shared object file\n');
      yield garbage;
    })());
    expect(r.binary).toBe(true);
    expect(r.category).toBe('import');
    expect(r.firstError?.line).toBe('ImportError: libcudnn.so.9: cannot open shared object file');
    expect(r.snippet).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });

  it('decodes UTF-8 characters split across chunks', async () => {
    const bytes = Buffer.from('ok\nValueError: ünïcødé 😀 failed\n');
    const r = await triageStream((async function* () {
      for (const b of bytes) yield Buffer.from([b]);
    })());
    expect(r.firstError?.line).toBe('ValueError: ünïcødé 😀 failed');
  });

  it('replaces invalid UTF-8 instead of failing', async () => {
    const r = await triageStream((async function* () {
      yield Buffer.concat([Buffer.from('RuntimeError: bad byte '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' here\n')]);
    })());
    expect(r.firstError?.line).toBe('RuntimeError: bad byte \ufffd(\ufffd here');
  });

  it('reads a 50 MB log as a stream and numbers the lines of an error at its end', async () => {
    const noise = 'node-1:12:34 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read step loss=0.123\n';
    const lines = Math.ceil((50 * 1024 * 1024) / noise.length / 1000) * 1000;
    const r = await triageStream(repeat(noise, lines, ['Traceback (most recent call last):\n  File "t.py", line 1\n', 'torch.OutOfMemoryError: CUDA out of memory.\n', 'tail line\n']));
    expect(r.category).toBe('gpu-oom');
    expect(r.firstError?.lineNumber).toBe(lines + 3);
    expect(r.lineCount).toBe(lines + 4);
    expect(r.tail[r.tail.length - 1]).toBe('tail line');
    expect(r.firstError?.context.slice(0, 2)).toEqual([noise.trimEnd(), noise.trimEnd()]);
  });

  it('handles a 20 MB line without any newline, keeping only a bounded piece of it', async () => {
    const r = await triageStream(repeat('abcdefghij'.repeat(100), 20_000, [' Error: at the very end\n', 'next line\n']));
    expect(r.lineCount).toBe(2);
    expect(r.firstError?.lineNumber).toBe(1);
    expect(r.firstError!.line.length).toBeLessThanOrEqual(1000);
  });

  it('shows what a terminal would show of a tqdm line and finds an error after its carriage returns', () => {
    const bar = Array.from({ length: 50 }, (_, i) => `Epoch 1: ${i * 2}%|███ | ${i}/50`).join('\r');
    const r = triageText(`${bar}\rRuntimeError: shapes do not match\r\nnext\r\n`);
    expect(r.firstError).toMatchObject({ line: 'RuntimeError: shapes do not match', lineNumber: 1 });
    expect(r.tail).toEqual(['RuntimeError: shapes do not match', 'next']);
  });

  it('ignores an error that was followed by a retry and picks the one that ended the run', () => {
    const r = triageText(['ConnectionResetError: [Errno 104] Connection reset by peer', 'Retrying in 5s (attempt 2/5)', 'ok', 'ValueError: bad shape'].join('\n'));
    expect(r.firstError?.line).toBe('ValueError: bad shape');
  });

  it('bounds the snippet to the size of a Slack section', () => {
    const r = triageText(Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(200)}`).join('\n'));
    expect(r.snippet.length).toBeLessThanOrEqual(2500);
    expect(r.tail.length).toBeLessThanOrEqual(30);
  });

  it('passes the given source through and fills in the rank from the line prefix', () => {
    const r = triageText('[rank5]: ValueError: x', undefined, { pod: 'job-worker-1', container: 'main' });
    expect(r.firstError?.source).toEqual({ pod: 'job-worker-1', container: 'main', rank: 'rank 5' });
  });
});
