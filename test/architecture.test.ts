/**
 * The architecture's import rules (.dependency-cruiser.cjs, explained in docs/ARCHITECTURE.md)
 * hold for src/: no folder or run-time module cycles, pure modules import no I/O and no adapter,
 * and production code never loads the demo or the simulators statically. The same rules run on
 * a small tree that breaks each of them once, so a rule that stopped matching would show here.
 */
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

async function violations(baseDir?: string): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
  const tsConfig = extractTSConfig('tsconfig.json');
  const result = await cruise(['src'], { ...options, ...(baseDir ? { baseDir } : {}) }, undefined, { tsConfig });
  return (result.output as ICruiseResult).summary.violations;
}

function describe_(v: IViolation): string {
  const path = v.cycle?.length ? ` via ${v.cycle.map((c) => c.name).join(' → ')}` : '';
  return `${v.rule.name}: ${v.from} → ${v.to}${path}`;
}

describe('architecture', () => {
  it('src/ breaks none of the import rules', async () => {
    const found = (await violations()).map(describe_);
    // Printed in full when it fails: the rule, both ends and the cycle.
    expect(found).toEqual([]);
  }, 120_000);

  it('each rule catches the import it forbids', async () => {
    const found = await violations('test/fixtures/architecture');
    const rules = (name: string) => found.filter((v) => v.rule.name === name).map((v) => `${v.from} → ${v.to}`);
    expect(rules('no-folder-cycles').length).toBeGreaterThan(0);
    expect(found.filter((v) => v.rule.name === 'no-folder-cycles').flatMap((v) => [v.from, v.to])).toEqual(expect.arrayContaining(['src/messages', 'src/notify']));
    expect(rules('no-module-cycles')).toEqual(expect.arrayContaining(['src/notify/a.ts → src/notify/b.ts']));
    expect(rules('pure-imports-no-io').sort()).toEqual([
      'src/messages/alert.ts → @slack/bolt',
      'src/messages/alert.ts → fs',
    ]);
    expect(rules('pure-imports-no-adapters')).toEqual(['src/messages/alert.ts → src/notify/a.ts']);
    expect(rules('production-not-on-demo-or-sim')).toEqual(['src/commands/start.ts → src/demo/scenario.ts']);
    expect(rules('demo-loaded-only-by-the-demo-command')).toEqual(['src/check/run.ts → src/demo/scenario.ts']);
  }, 120_000);
});
