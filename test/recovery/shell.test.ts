/**
 * The shell-word tokenizer and parser, row by row: quoting, operators, redirections,
 * heredocs, groups; and its bounds on hostile input.
 */
import { MAX_SCRIPT_CHARS, MAX_TOKENS, parseScript, scriptTokens, splitWords, type SimpleCommand } from '../../src/recovery/shell.js';

const words = (text: string) => splitWords(text).words.map((w) => w.text);
const simple = (text: string, i = 0): SimpleCommand => parseScript(text).statements[i].pipeline.commands[0] as SimpleCommand;

describe('splitWords (exec-style command lines, such as Run:ai arguments)', () => {
  it.each([
    ['train.py --epochs 30', ['train.py', '--epochs', '30']],
    ['-c "python pretrain.py --config a.yaml"', ['-c', 'python pretrain.py --config a.yaml']],
    ["-c 'echo \"$X\"'", ['-c', 'echo "$X"']],
    ['a\\ b "c\\"d" e\'f\'g', ['a b', 'c"d', 'efg']],
    ['x | tee log; y', ['x', '|', 'tee', 'log;', 'y']],
    ['  spaced\tout\n  lines ', ['spaced', 'out', 'lines']],
    ['$\'a\\tb\' end', ['atb', 'end']],
    ['"unterminated quote', ['unterminated quote']],
  ])('%j → %j', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });
});

describe('parseScript', () => {
  it('splits statements on ; && || & and newlines, and pipelines on | and |&', () => {
    const script = parseScript('a 1 && b | c; d |& e\nf || g &');
    expect(script.statements.map((s) => s.pipeline.commands.map((c) => (c as SimpleCommand).words[0].text))).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f'], ['g']]);
    expect(script.statements.map((s) => s.connector)).toEqual(['&&', ';', '\n', '||', '&']);
    expect(script.statements[2].pipeline.ops).toEqual(['|&']);
  });

  it('reads redirections with their file descriptors', () => {
    const c = simple('python t.py > out.log 2>&1 2>>err.log &>both.log < in.txt');
    expect(c.words.map((w) => w.text)).toEqual(['python', 't.py']);
    expect(c.redirects.map((r) => [r.fd, r.op, r.target?.text])).toEqual([
      [undefined, '>', 'out.log'],
      [2, '>&', '1'],
      [2, '>>', 'err.log'],
      [undefined, '&>', 'both.log'],
      [undefined, '<', 'in.txt'],
    ]);
  });

  it('keeps variables and substitutions as written, marked as expanding', () => {
    const c = simple('tee /data/$RANK.log "${HOME}/x" $(hostname).log `date` \'$literal\'');
    expect(c.words.map((w) => [w.text, w.expands])).toEqual([
      ['tee', false],
      ['/data/$RANK.log', true],
      ['${HOME}/x', true],
      ['$(hostname).log', true],
      ['`date`', true],
      ['$literal', false],
    ]);
  });

  it('reads a substitution holding operators as one word', () => {
    expect(simple('echo $(a | b; c) done').words.map((w) => w.text)).toEqual(['echo', '$(a | b; c)', 'done']);
  });

  it('takes leading NAME=value words as assignments', () => {
    const c = simple('PYTHONUNBUFFERED=1 CUDA_VISIBLE_DEVICES=0,1 python t.py a=b');
    expect(c.assignments.map((w) => w.text)).toEqual(['PYTHONUNBUFFERED=1', 'CUDA_VISIBLE_DEVICES=0,1']);
    expect(c.words.map((w) => w.text)).toEqual(['python', 't.py', 'a=b']);
  });

  it('reads heredoc bodies, quoted delimiters and <<- tab stripping', () => {
    const script = parseScript("python - <<'PY'\nprint('hi')\nPY\ncat <<-EOF > f\n\tindented\n\tEOF\necho after");
    const first = script.statements[0].pipeline.commands[0] as SimpleCommand;
    expect(first.redirects[0]).toMatchObject({ op: '<<', heredoc: "print('hi')" });
    const second = script.statements[1].pipeline.commands[0] as SimpleCommand;
    expect(second.redirects.find((r) => r.op === '<<-')?.heredoc).toBe('indented');
    expect((script.statements[2].pipeline.commands[0] as SimpleCommand).words[0].text).toBe('echo');
  });

  it('skips comments and joins continued lines', () => {
    expect(simple('# a comment\npython \\\n  train.py # trailing').words.map((w) => w.text)).toEqual(['python', 'train.py']);
  });

  it('reads groups and subshells, and sees through if/then/fi and do/done', () => {
    const script = parseScript('( a; b ) | tee x\n{ c; } > y\nif [ -f z ]; then d; fi\nfor i in 1 2; do e $i; done');
    const group = script.statements[0].pipeline.commands[0];
    expect(group.kind).toBe('group');
    const names = (i: number) => script.statements[i].pipeline.commands.map((c) => (c.kind === 'simple' ? c.words[0].text : 'group'));
    expect(names(0)).toEqual(['group', 'tee']);
    expect(names(1)).toEqual(['group']);
    expect(script.statements.slice(2).map((s) => (s.pipeline.commands[0] as SimpleCommand).words[0].text)).toEqual(['[', 'd', 'e']);
  });

  it('gives the tokens of a script for a diff: words as written, operators, redirections whole', () => {
    expect(scriptTokens('cd /x && python "a b.py" 2>&1 | tee log')).toEqual(['cd', '/x', '&&', 'python', '"a b.py"', '2>&1', '|', 'tee', 'log']);
  });
});

describe('bounds on hostile input', () => {
  it.each([
    ['a megabyte of one word', 'x'.repeat(1 << 20)],
    ['a megabyte of opening parentheses', '('.repeat(1 << 20)],
    ['a megabyte of unclosed substitutions', '$('.repeat(1 << 19)],
    ['a megabyte of quotes', '"\''.repeat(1 << 19)],
    ['a megabyte of heredoc openings', '<<E\n'.repeat(1 << 18)],
    ['a megabyte of operators', '|&;'.repeat(1 << 18)],
  ])('reads %s up to its bounds and says it was cut', (_what, text) => {
    const script = parseScript(text);
    expect(script.cut).toBe(true);
    expect(splitWords(text).cut).toBe(true);
  });

  it('stops at MAX_TOKENS tokens', () => {
    const text = 'a '.repeat(MAX_TOKENS + 10);
    expect(text.length).toBeLessThan(MAX_SCRIPT_CHARS);
    const script = parseScript(text);
    expect(script.cut).toBe(true);
    expect((script.statements[0].pipeline.commands[0] as SimpleCommand).words).toHaveLength(MAX_TOKENS);
  });
});
