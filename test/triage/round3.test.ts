import { triageStream, triageText, type Category, type TriageHints } from '../../src/triage/index.js';
import { unrecognisedException } from '../../src/triage/signatures.js';
import { EXCEPTION_MODULES } from '../../src/triage/vocabulary.js';

/**
 * Round 3 of dev2 (platform and application failures): the general mechanisms it asked for,
 * each as a short log written for the mechanism, not a copy of a dev2 log. Each case fails with
 * its mechanism removed.
 */
interface Case {
  log: string[];
  /** 1-based number of the line that must be chosen. */
  line: number;
  category: Category;
  hints?: TriageHints;
}

const traceback = (exception: string): string[] => ['Traceback (most recent call last):', '  File "/app/train.py", line 41, in <module>', '    main()', exception];

const CASES: Record<string, Case> = {
  "an exception of Hydra's whose message names nothing known is the configuration, not other": {
    log: traceback("hydra.errors.HydraException: Interpolation key 'trainer.devices' was set twice"),
    line: 4,
    category: 'config',
  },
  "an exception of the Hugging Face Hub's is the data source": {
    log: traceback('huggingface_hub.errors.BadRequestError: (Request ID: Root=1-6a) Bad request for commit endpoint: invalid revision'),
    line: 4,
    category: 'data-path',
  },
  "an exception of pip's is the image's packages": {
    log: ['Collecting flash-attn==2.7.4', 'pip._internal.exceptions.MetadataGenerationFailed: metadata generation failed'],
    line: 2,
    category: 'import',
  },
  'the class is weak evidence: the recognised exception chained with it decides': {
    log: [
      ...traceback("hydra.errors.InstantiationException: Error in call to target 'data.Loader'"),
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      ...traceback("FileNotFoundError: [Errno 2] No such file or directory: '/data/train.parquet'"),
    ],
    line: 4,
    category: 'data-path',
  },
  "the class is weak evidence: an exit code that names a signal outranks it": {
    log: traceback('botocore.exceptions.IncompleteSignatureError: signature incomplete'),
    line: 4,
    category: 'host-oom',
    hints: { exitCode: 137 },
  },
  "a Rust CLI's error report (miette's ×) is the error, not the help line that mentions a failure after it": {
    log: ['Resolved 212 packages in 1.84s', '  × No wheels with a matching platform tag (e.g. `manylinux_2_28_aarch64`) for torch==2.6.0+cu124', '  ╰─▶ torch==2.6.0+cu124 has no wheels for this platform', '  help: If you want to add the package regardless of the failed resolution, provide the `--frozen` flag'],
    line: 2,
    category: 'other',
  },
};

describe('round 3 of dev2: platform and application mechanisms', () => {
  it.each(Object.entries(CASES))('%s', (_name, c) => {
    const r = triageText(`${c.log.join('\n')}\n`, c.hints);
    expect([r.firstError?.lineNumber, r.category]).toEqual([c.line, c.category]);
  });

  it("reads miette's × from a byte stream too (UTF-8 bytes scanned as latin1)", async () => {
    const c = CASES["a Rust CLI's error report (miette's ×) is the error, not the help line that mentions a failure after it"];
    const bytes = Buffer.from(`${c.log.join('\n')}\n`, 'utf8');
    const r = await triageStream((async function* () {
      yield bytes;
    })());
    expect([r.firstError?.lineNumber, r.firstError?.line]).toEqual([2, c.log[1]]);
  });

  it('takes a module only as a whole dotted prefix of the class, and each module names its layer', () => {
    for (const m of EXCEPTION_MODULES) {
      expect(m.source).toMatch(/[\w-]+\/[\w.-]+ \S+\.\w+/);
      expect(unrecognisedException(`${m.module}.SomethingNew: x`)).toMatchObject({ category: m.category, kind: 'class' });
    }
    // `yaml` is a module, `yamlette` is not one of its submodules; a bare class names no module.
    expect(unrecognisedException('yamlette.LoadError: x')).toMatchObject({ category: 'other' });
    expect(unrecognisedException('HydraException: x')).toMatchObject({ category: 'other' });
  });
});
