import { GUIDE, SAFE_RECOVERY } from '../lifecycle/states.js';
import type { Category } from './types.js';

/**
 * One row per category: its label, whether a plain retry is sensible (the guide's "transient
 * scheduling or service failures"), and, for application errors, which of the things the
 * guide names (image, command, data path) or the resources must change.
 */
export const CATEGORIES: Readonly<Record<Category, { label: string; transient: boolean; change: string }>> = {
  'gpu-oom': {
    label: 'GPU out of memory',
    transient: false,
    change: 'Change the resources or the command: request more GPU memory, or lower the batch size or sequence length.',
  },
  'host-oom': {
    label: 'Host out of memory (OOMKilled)',
    transient: false,
    change: 'Change the resources or the command: request more CPU memory (or shared memory), or use fewer data-loader workers.',
  },
  cuda: {
    label: 'CUDA error',
    transient: false,
    change: 'Change the image or the command: match the CUDA build to the driver, or fix the failing kernel.',
  },
  nccl: {
    label: 'NCCL / distributed error',
    transient: false,
    change: 'Check the first rank that failed and fix its error; change the command if the distributed settings are wrong.',
  },
  import: {
    label: 'Import or dependency error',
    transient: false,
    change: 'Change the image: install the missing or mismatched package.',
  },
  'data-path': {
    label: 'Data path not found',
    transient: false,
    change: 'Change the data path or the data source so that the file exists where the command looks.',
  },
  permission: {
    label: 'Permission denied',
    transient: false,
    change: 'Change the data path, its permissions or the credentials the workload uses.',
  },
  config: {
    label: 'Configuration error',
    transient: false,
    change: 'Change the command, its arguments or the referenced secret or config map.',
  },
  'image-pull': {
    label: 'Image pull failed',
    transient: false,
    change: 'Change the image: check its name, tag and registry credentials.',
  },
  scheduling: {
    label: 'Scheduling / quota',
    transient: true,
    change: GUIDE.Pending.nextAction,
  },
  'volume-mount': {
    label: 'Volume mount failed',
    transient: false,
    change: 'Change the data source: check that the volume or claim exists, is bound and has room left.',
  },
  crash: {
    label: 'Crash (segfault or abort)',
    transient: false,
    change: 'Change the image or the command: the program crashed in native code.',
  },
  eviction: {
    label: 'Eviction, preemption or node failure',
    transient: true,
    change: '',
  },
  other: {
    label: 'Other error',
    transient: false,
    change: 'Read the error line and change the image, command or data path accordingly.',
  },
};

export function categoryLabel(c: Category): string {
  return CATEGORIES[c].label;
}

/** The advice for a category: the guide's sentence first, then what to change. */
export function adviceFor(category: Category, transient: boolean): string {
  const { change } = CATEGORIES[category];
  if (transient) {
    return category === 'scheduling'
      ? `${SAFE_RECOVERY.retryTransient} ${change}`
      : SAFE_RECOVERY.retryTransient;
  }
  return `${SAFE_RECOVERY.fixApplication} ${change} ${SAFE_RECOVERY.oneChange}`;
}
