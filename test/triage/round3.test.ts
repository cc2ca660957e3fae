import { unrecognisedException } from '../../src/triage/signatures.js';
import { EXCEPTION_MODULES } from '../../src/triage/vocabulary.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 3 of dev2 (platform and application failures): the general mechanisms it asked for,
 * each as a short log written for the mechanism, not a copy of a dev2 log. Each case fails with
 * its mechanism removed.
 */
const traceback = (exception: string): string[] => ['Traceback (most recent call last):', '  File "/app/train.py", line 41, in <module>', '    main()', exception];

const CASES: Record<string, LogCase> = {
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
  "a line that announces its cause with a colon gives its place to the recognised error on the next line": {
    log: [
      ...traceback('RuntimeError: Failed to import transformers.models.qwen2.modeling_qwen2 because of the following error (look up to see its traceback):'),
      "/opt/conda/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
    ],
    line: 5,
    category: 'import',
  },
  'and that cause decides the category when it is of another layer': {
    log: [
      ...traceback('RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback):'),
      'CUDA error: no kernel image is available for execution on the device',
    ],
    line: 5,
    category: 'cuda',
  },
  'a colon announces nothing when the next line is not a recognised error': {
    log: [...traceback('ImportError: cannot import name \'LlamaForCausalLM\' from partially initialized module:'), 'Exiting with status 1 after cleanup'],
    line: 4,
    category: 'import',
  },
  "a tool's advice line (uv's help:, pip's note:) is not the error even when it names a failure": {
    log: ['  help: If you want to add the package regardless of the failed resolution, provide the `--frozen` flag to skip locking and syncing.', 'make: *** [Makefile:12: lock] Error 1'],
    line: 2,
    // No rule knows the failure, but the words of uv's resolver ("resolution", "package",
    // "locking") are those of the failed resolutions labelled import: the learnt reading's guess.
    category: 'import',
  },
};

describe('round 3 of dev2: platform and application mechanisms', () => {
  itTriagesEach(CASES);

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
