import { RED_HERRINGS, TIER, classifyLine } from '../../src/triage/signatures.js';
import { triageText } from '../../src/triage/index.js';

/**
 * Messages that name a failure but are printed on healthy runs too (or echo a failure told
 * elsewhere). Each entry of RED_HERRINGS has a real line here; each must be ignored, and a
 * real error after it must still be found.
 */
const EXAMPLES: Array<[string, string]> = [
  ['libibverbs (NCCL INFO)', 'h100-node:2340:2384 [4] NCCL INFO Failed to open libibverbs.so[.1]'],
  ['libibverbs (NCCL WARN)', '[0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]'],
  ['net plugin', 'MLVM2:10792:10792 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory'],
  ['ibverbs provider', "libibverbs: Warning: couldn't load driver 'libipathverbs-rdmav25.so': libipathverbs-rdmav25.so: cannot open shared object file: No such file or directory"],
  ['torchrun cleanup', 'WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 2410413 closing signal SIGTERM'],
  ['mpirun banner', 'Primary job  terminated normally, but 1 process returned'],
  ['mpirun banner, second line', 'a non-zero exit code. Per user-direction, the job has been aborted.'],
  ['process group teardown', '[rank0]:[W1019 08:16:22.397556647 ProcessGroupNCCL.cpp:1477] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources.'],
  ['finaliser at exit', 'Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f8b2c1d1e50>'],
  ['NCCL abort notice', '[rank1]:[E ProcessGroupNCCL.cpp:583] [Rank 1] To avoid data inconsistency, we are taking the entire process down.'],
  ['docker run pulling a missing image', "Unable to find image 'nvcr.io/nvidia/pytorch:24.05-py3' locally"],
  ['no flight recorder trace after a watchdog timeout', '[rank2]:[E112 15:47:18.729013681 ProcessGroupNCCL.cpp:667] Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.'],
  ["the device plugin's advice", 'E0506 17:45:45.421965       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?'],
  ['rclone without a configuration file', '2024/03/02 08:11:40 NOTICE: Config file "/.rclone.conf" not found - using defaults'],
  ['rclone without a configuration directory', '2024/03/02 08:11:40 DEBUG : Configuration directory could not be created and will not be used: mkdir /config: permission denied'],
  ["the device plugin's advice, its link", 'E0506 17:45:45.421969       1 factory.go:114] You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites'],
];

describe('red herrings', () => {
  it.each(EXAMPLES)('ignores %s', (_what, line) => {
    expect(classifyLine(line)).toBeNull();
  });

  it.each(EXAMPLES)('finds the real error after %s', (_what, line) => {
    const r = triageText(`${line}\nRuntimeError: CUDA error: an illegal memory access was encountered\n`);
    expect(r.firstError?.lineNumber).toBe(2);
    expect(r.category).toBe('cuda');
  });

  it('has a real example for every herring in the table', () => {
    for (const herring of RED_HERRINGS) {
      expect([herring.why, EXAMPLES.some(([, line]) => herring.pattern.test(line))]).toEqual([herring.why, true]);
    }
  });

  it('takes the CUDA failure NCCL reports after the libibverbs notice', () => {
    const r = triageText(
      [
        '[0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]',
        'NCCL version 2.7.8+cuda11.0',
        "[3] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'",
        '-- Process 3 terminated with the following error:',
        'RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:31, unhandled cuda error, NCCL version 2.7.8',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(3);
    expect(r.category).toBe('cuda');
    expect(classifyLine("[3] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'")).toMatchObject({ category: 'cuda', tier: TIER.recognised });
  });
});
