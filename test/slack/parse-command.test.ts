import { parseCommand } from '../../src/slack/parse-command.js';

describe('parseCommand', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['  LIST ', { kind: 'list' }],
    ['list -p Vision', { kind: 'list', filter: { project: 'vision' } }],
    ['list --state FAILED', { kind: 'list', filter: { state: 'failed' } }],
    ['ls --project llm --state running', { kind: 'list', filter: { project: 'llm', state: 'running' } }],
    ['list \u2014state pending -p genai', { kind: 'list', filter: { project: 'genai', state: 'pending' } }],
    ['status resnet', { kind: 'status', query: { name: 'resnet', project: undefined } }],
    ['status resnet -p vision', { kind: 'status', query: { name: 'resnet', project: 'vision' } }],
    ['status -p vision resnet', { kind: 'status', query: { name: 'resnet', project: 'vision' } }],
    ['why sdxl --project genai', { kind: 'why', query: { name: 'sdxl', project: 'genai' } }],
    ['logs resnet', { kind: 'logs', query: { name: 'resnet', project: undefined }, tail: 50, capped: false }],
    ['logs resnet --tail 200', { kind: 'logs', query: { name: 'resnet', project: undefined }, tail: 200, capped: false }],
    ['logs resnet \u2014tail 200', { kind: 'logs', query: { name: 'resnet', project: undefined }, tail: 200, capped: false }],
    ['logs resnet --tail 5000 -p vision', { kind: 'logs', query: { name: 'resnet', project: 'vision' }, tail: 1000, capped: true }],
    ['maintenance', { kind: 'maintenance' }],
    ['mute resnet', { kind: 'mute', target: { type: 'workload', query: { name: 'resnet', project: undefined } } }],
    ['mute resnet -p vision for 2h', { kind: 'mute', target: { type: 'workload', query: { name: 'resnet', project: 'vision' } }, forMs: 7_200_000 }],
    ['mute project vision for 1d', { kind: 'mute', target: { type: 'project', project: 'vision' }, forMs: 86_400_000 }],
    ['mute project vision for 1h30m', { kind: 'mute', target: { type: 'project', project: 'vision' }, forMs: 5_400_000 }],
    ['unmute project vision', { kind: 'unmute', target: { type: 'project', project: 'vision' } }],
    ['unmute resnet', { kind: 'unmute', target: { type: 'workload', query: { name: 'resnet', project: undefined } } }],
    ['settings', { kind: 'settings' }],
    ['settings completed on', { kind: 'settings', change: { key: 'completed', on: true } }],
    ['settings pending OFF', { kind: 'settings', change: { key: 'pending', on: false } }],
    ['settings tips off', { kind: 'settings', change: { key: 'tips', on: false } }],
    ['settings Tips ON', { kind: 'settings', change: { key: 'tips', on: true } }],
    ['settings quiet 22:00-07:00', { kind: 'settings', change: { key: 'quiet', from: '22:00', to: '07:00' } }],
    ['settings quiet 22:00 - 7:00 europe/berlin', { kind: 'settings', change: { key: 'quiet', from: '22:00', to: '07:00', timezone: 'Europe/Berlin' } }],
    ['settings quiet off', { kind: 'settings', change: { key: 'quiet off' } }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });

  it.each([
    ['frobnicate', "I don't know the command"],
    ['list everything', 'takes only `-p PROJECT`'],
    ['list --state', 'needs a state: failed, pending, running'],
    ['list --state completed', '`--state` takes failed, pending, running'],
    ['list -p', 'needs a project name'],
    ['list -p Bad_Project!', 'is not a project name'],
    ['list --tail 5', 'unknown option'],
    ['status', 'exactly one workload name'],
    ['status a b', 'exactly one workload name'],
    ['status Bad_Name!', 'is not a workload name'],
    ['status resnet -p', 'needs a project name'],
    ['status resnet --tail 5', 'unknown option'],
    ['logs resnet --tail 0', 'whole number'],
    ['logs resnet --tail -3', 'whole number'],
    ['mute resnet for 5', 'should look like'],
    ['mute resnet for', 'should look like'],
    ['mute resnet for 400d', 'should look like'],
    ['mute project', 'exactly one project name'],
    ['settings completed maybe', 'settings completed on'],
    ['settings colour blue', 'there is no setting'],
    ['settings colour blue', '`tips`'],
    ['settings tips', 'settings tips on'],
    ['settings tips sometimes', 'settings tips off'],
    ['settings quiet 22:00-22:00', 'settings quiet 22:00-07:00'],
    ['settings quiet 9pm-7am', 'settings quiet 22:00-07:00'],
    ['settings quiet 22:00-07:00 Mars/Olympus', 'is not a time zone'],
  ])('refuses %j with a problem in words', (text, problem) => {
    const parsed = parseCommand(text);
    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.problem).toContain(problem);
  });
});

describe('parseCommand with several clusters', () => {
  const clusters = ['gpu-east', 'GPU-West'];

  it.each([
    ['status train-1', { kind: 'status', query: { name: 'train-1' } }],
    ['status gpu-east/train-1', { kind: 'status', query: { name: 'train-1', cluster: 'gpu-east' } }],
    // A cluster typed in any case is the configured one, spelled as the config spells it.
    ['logs gpu-west/train-1 --tail 10', { kind: 'logs', query: { name: 'train-1', cluster: 'GPU-West' }, tail: 10, capped: false }],
    ['why gpu-east/vision/train-1', { kind: 'why', query: { name: 'train-1', project: 'vision', cluster: 'gpu-east' } }],
    ['why --cluster gpu-east train-1', { kind: 'why', query: { name: 'train-1', cluster: 'gpu-east' } }],
    ['status train-1 --cluster gpu-east -p vision', { kind: 'status', query: { name: 'train-1', project: 'vision', cluster: 'gpu-east' } }],
    // A first part that is no cluster is a project or namespace, as `-p` would say.
    ['status vision/train-1', { kind: 'status', query: { name: 'train-1', project: 'vision' } }],
    ['status runai-vision/train-1 --cluster gpu-east', { kind: 'status', query: { name: 'train-1', project: 'runai-vision', cluster: 'gpu-east' } }],
    ['mute gpu-east/train-1 for 2h', { kind: 'mute', target: { type: 'workload', query: { name: 'train-1', cluster: 'gpu-east' } }, forMs: 7_200_000 }],
    ['status --cluster gpu-north train-1', { kind: 'unknownCluster', cluster: 'gpu-north' }],
    ['list --cluster gpu-west', { kind: 'list', filter: { cluster: 'GPU-West' } }],
    ['list --cluster gpu-east --state failed -p vision', { kind: 'list', filter: { cluster: 'gpu-east', state: 'failed', project: 'vision' } }],
    ['list --cluster gpu-north', { kind: 'unknownCluster', cluster: 'gpu-north' }],
    ['logs gpu-north/vision/train-1', { kind: 'unknownCluster', cluster: 'gpu-north' }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text, clusters)).toEqual(expected);
  });

  it.each([
    ['status gpu-east/train-1 --cluster gpu-west', 'two different clusters'],
    ['status vision/train-1 -p llm', 'two different projects'],
    ['status a/b/c/d', 'is not a workload name'],
    ['status gpu-east/', 'is not a workload name'],
    ['status gpu-east/Bad_Name', 'is not a workload name'],
    ['status gpu-east/bad_project/train-1', 'is not a project name'],
    ['status train-1 --cluster', 'needs a cluster name'],
  ])('refuses %j with a problem in words', (text, problem) => {
    const parsed = parseCommand(text, clusters);
    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.problem).toContain(problem);
  });

  it('reads A/NAME as NAME in project (or namespace) A when no clusters are configured', () => {
    expect(parseCommand('status gpu-east/train-1')).toEqual({ kind: 'status', query: { name: 'train-1', project: 'gpu-east' } });
    expect(parseCommand('status --cluster gpu-east train-1')).toEqual({ kind: 'unknownCluster', cluster: 'gpu-east' });
  });
});
