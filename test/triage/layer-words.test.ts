import { verdictSection } from '../../src/messages/alert.js';
import { LAYER_STEMS, LAYER_WORDS, LayerVote, VOTING_LINES, layersOfLine } from '../../src/triage/layer-words.js';
import { PRECEDENCE } from '../../src/triage/precedence.js';
import { triageText } from '../../src/triage/index.js';

// Lines no vocabulary entry knows, in the layers' own words.
const CUDNN_LINES = ['ERROR: cudnn backend went sideways during setup', 'ERROR: cublasLt went sideways too'];
/** The same, as lines that are not even exceptions (a mention): pod events decide over those. */
const CUDNN_MENTIONS = ['cudnn backend failed during setup', 'cudnn frontend failed during setup'];

describe('layer words: the vote', () => {
  it('names a layer from its words, its API stems and "out of memory"', () => {
    expect([...layersOfLine('cudaErrorNoDevice while starting')]).toEqual(['cuda']);
    expect([...layersOfLine('ncclSystemError in the ring')]).toEqual(['nccl']);
    expect([...layersOfLine('NCCL says the CUDA kernel failed')]).toEqual(['cuda']);
    expect([...layersOfLine('worker ran out of memory')]).toEqual(['host-oom']);
    expect([...layersOfLine('the CUDA allocator ran out of memory')]).toEqual(['gpu-oom']);
    expect([...layersOfLine('ValueError: expected 3 channels')]).toEqual([]);
    expect([...layersOfLine('Expected all tensors to be on the same device, but found cuda:0 and cpu')]).toEqual([]);
    expect([...layersOfLine('The process is killed by SIGKILL by OOM killer')]).toEqual([]);
    expect([...layersOfLine('(2) the worker exited due to a segfault (SIGSEGV)')]).toEqual([]);
  });

  it('cites a source for every word and stem', () => {
    for (const w of [...LAYER_WORDS.values(), ...LAYER_STEMS.map(([, w]) => w)]) expect(w.source.length).toBeGreaterThan(10);
  });

  it('a clear winner decides the category of a log nothing recognised, as a guess', () => {
    const r = triageText(['starting', ...CUDNN_LINES, 'done'].join('\n'));
    expect(r.category).toBe('cuda');
    expect(r.recognised).toBe(false);
    expect(r.evidence[0].role).toBe('log-words');
    expect(r.summary).toMatch(/^Inferred from the words/);
    expect(r.transient).toBe(false);
    const text = JSON.stringify(verdictSection(r));
    expect(text).toContain('a guess');
    expect(text).toContain('CUDA error');
  });

  it('a tie is no reading: other', () => {
    const r = triageText(['ERROR: cudnn backend went sideways', 'ERROR: the registry went sideways'].join('\n'));
    expect(r.category).toBe('other');
    expect(r.evidence.some((e) => e.role === 'log-words')).toBe(false);
  });

  it('a close second is no reading either', () => {
    const vote = new LayerVote();
    vote.add('cudnn went wrong', 1);
    vote.add('cudnn went wrong', 2);
    vote.add('registry went wrong', 3);
    vote.add('registry went wrong', 4);
    expect(vote.winner()).toBeUndefined();
    vote.add('cudnn went wrong', 5);
    expect(vote.winner()).toBeUndefined();
    vote.add('cudnn went wrong', 6);
    expect(vote.winner()?.category).toBe('cuda');
  });

  it('a log whose error lines name no layer stays other', () => {
    const r = triageText(['Traceback (most recent call last):', '  File "train.py", line 3, in <module>', 'ValueError: expected 3 channels, got 4'].join('\n'));
    expect(r.category).toBe('other');
    expect(r.recognised).toBe(false);
  });

  it('counts at most VOTING_LINES lines and stays linear on hostile input', () => {
    const vote = new LayerVote();
    for (let i = 0; i < VOTING_LINES + 10; i++) vote.add('cudnn', i + 1);
    expect(vote.winner()?.summary).toContain(`(${VOTING_LINES} of them`);
    const time = (n: number): number => {
      const text = `${'ERROR: '.concat('cudnn_'.repeat(600), 'x '.repeat(300), '\n').repeat(n)}`;
      const t0 = process.hrtime.bigint();
      triageText(text);
      return Number(process.hrtime.bigint() - t0);
    };
    time(200);
    const small = time(500);
    const big = time(2000);
    expect(big / small).toBeLessThan(12);
  });
});

describe('layer words: every recognised evidence outranks them', () => {
  it('sits just above the learnt words, and they just above the last row of the precedence', () => {
    const i = PRECEDENCE.findIndex((r) => r.name === 'layer words');
    expect(PRECEDENCE.slice(i).map((r) => r.name)).toEqual(['layer words', 'learnt words', 'whatever the line says']);
  });

  it('a recognised line', () => {
    const r = triageText([...CUDNN_LINES, 'ERROR: the registry said no', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'].join('\n'));
    expect(r.category).toBe('gpu-oom');
    expect(r.recognised).toBe(true);
  });

  it('a termination reason, an exit code and pod events', () => {
    expect(triageText(CUDNN_LINES.join('\n'), { reason: 'OOMKilled' }).category).toBe('host-oom');
    expect(triageText(['Traceback (most recent call last):', 'RuntimeError: cudnn handle broke', 'RuntimeError: cudnn handle broke again'].join('\n'), { exitCode: 139 }).category).toBe('crash');
    expect(triageText(CUDNN_MENTIONS.join('\n')).category).toBe('cuda');
    expect(triageText(CUDNN_MENTIONS.join('\n'), { events: [{ reason: 'FailedMount', message: 'MountVolume.SetUp failed' }] }).category).toBe('volume-mount');
  });

  it("a recognised chained exception", () => {
    const log = [
      'Traceback (most recent call last):',
      'RuntimeError: cudnn handle broke',
      '',
      'The above exception was the direct cause of the following exception:',
      '',
      'Traceback (most recent call last):',
      'RuntimeError: cudnn wrapper failed: No module named \'flash_attn\'',
      "ModuleNotFoundError: No module named 'flash_attn'",
    ].join('\n');
    expect(triageText(log).category).toBe('import');
  });
});
