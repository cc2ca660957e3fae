import { fixtureLines } from './fixture-lines.js';
import { necessaryLiterals } from '../../src/triage/literal-gate.js';
import { MAX_SIGNATURE_STRING, Prefilter } from '../../src/triage/prefilter.js';
import { CASCADES, ERRORS, PREFILTER } from '../../src/triage/signatures.js';
import { triageText } from '../../src/triage/index.js';

/**
 * The first pass (src/triage/prefilter.ts): which lines are examined. It must be exactly the
 * expression it says it is (its `source`, case-insensitive), and every signature must be
 * reachable through it, whatever else the line says.
 */

describe('Prefilter', () => {
  const prefilter = new Prefilter([/err/i, /sig(?:term|kill)/i, /\[E(?:\s|\d{4}\s)/i], ['nodes are available', 'quot']);

  it('passes a line with an anchor or a signature string, in any ASCII case', () => {
    expect(prefilter.test('RuntimeError: x')).toBe(true);
    expect(prefilter.test('got SIGTERM')).toBe(true);
    expect(prefilter.test('0/4 Nodes Are Available: 4 Insufficient nvidia.com/gpu')).toBe(true);
    expect(prefilter.test('step 10 loss 0.5')).toBe(false);
    // Strings shorter than MIN_SIGNATURE_STRING are not anchors of their own.
    expect(prefilter.test('over quota')).toBe(false);
  });

  it('confirms an anchor that is no plain word by its own expression', () => {
    expect(prefilter.test('[E 12:00:01 c10d] store failed')).toBe(true);
    expect(prefilter.test('[E0430 12:00:01 c10d] store')).toBe(true);
    // "[e" alone is only the string it is found by.
    expect(prefilter.test('[epoch 3] done')).toBe(false);
    expect(prefilter.nextLine('[epoch 1]\n[epoch 2]\n[E 1 x]\n', 0)).toBe(20);
  });

  it('finds the start of the next line that passes, or -1', () => {
    const text = 'step 1\nstep 2\nValueError: bad\nstep 3\n';
    expect(prefilter.nextLine(text, 0)).toBe(14);
    expect(prefilter.nextLine(text, 30)).toBe(-1);
    // A string is never found across lines.
    expect(prefilter.nextLine('nodes are\navailable\n', 0)).toBe(-1);
    // An unfinished last line counts.
    expect(prefilter.nextLine('ok\nsigkill', 0)).toBe(3);
  });
});

describe('the prefilter of the triage', () => {
  it('is exactly its source as a case-insensitive expression, on every fixture line', () => {
    const reference = new RegExp(PREFILTER.source, 'i');
    const lines = fixtureLines();
    let passed = 0;
    const differ = lines.filter((line) => {
      const expected = reference.test(line);
      if (expected) passed++;
      return PREFILTER.test(line) !== expected;
    });
    expect(differ).toEqual([]);
    expect(passed).toBeGreaterThan(1000);
  });

  it('reaches every signature: each string a signature cannot match without passes it', () => {
    const unreachable = [...ERRORS, ...CASCADES].flatMap((sig) =>
      // Strings past ASCII (one shared column) are checked through the vocabulary's examples instead.
      (necessaryLiterals(sig.pattern) ?? ['(no string)']).filter((s) => !s.includes('\x7f') && !PREFILTER.test(s)).map((s) => `${sig.summary}: ${s}`),
    );
    expect(unreachable).toEqual([]);
  });

  it('holds the first MAX_SIGNATURE_STRING characters of a long signature string, which are as necessary', () => {
    const long = 'is not a local folder and is not a valid model identifier';
    const prefilter = new Prefilter([/err/i], [long]);
    expect(prefilter.test(`x ${long.slice(0, MAX_SIGNATURE_STRING)}`)).toBe(true);
    expect(prefilter.test(`x ${long.slice(0, MAX_SIGNATURE_STRING - 1)}`)).toBe(false);
  });
});

describe('a log whose failure line carries no anchor word', () => {
  it.each([
    ['0/4 nodes are available: 4 Insufficient nvidia.com/gpu.', 'scheduling'],
    ['Workload is inadmissible: insufficient unused quota for nvidia.com/gpu in flavor default, 8 more needed', 'scheduling'],
    ['Outdated cuDNN installation found.', 'cuda'],
    ['Torch not compiled with CUDA enabled', 'cuda'],
  ])('%s is read as %s, on its line', (line, category) => {
    const r = triageText(`step 1\n${line}\nstep 2\n`);
    expect(r.category).toBe(category);
    expect(r.firstError?.lineNumber).toBe(2);
  });
});

describe("the Kubernetes Python client's ApiException", () => {
  it('reads its (403) status line as a status: the body names the failure', () => {
    const log = [
      '(403)',
      'Reason: Forbidden',
      "HTTP response headers: HTTPHeaderDict({'Content-Type': 'application/json'})",
      'HTTP response body: {"kind":"Status","status":"Failure","message":"pods \\"p\\" is forbidden: exceeded quota: q, requested: limits.memory=512Mi, used: limits.memory=1Gi, limited: limits.memory=1Gi","reason":"Forbidden","code":403}',
    ].join('\n');
    const r = triageText(`${log}\n`);
    expect(r.firstError?.lineNumber).toBe(4);
    expect(r.category).toBe('scheduling');
  });
});
