/**
 * A small shell-word tokenizer and parser for the command lines workloads run: `bash -c`
 * strings, heredocs, pipelines and redirections. It reads; it never evaluates: variables stay
 * as written (`$RANK`), command substitutions are kept whole inside their word, and nothing is
 * expanded or run.
 *
 * Why not a library: shell-quote (the common one) chunks with a regular expression over the
 * whole input, has no heredocs and no fd redirections (`2>&1` comes out as three pieces), and
 * substitutes variables unless told not to; bash-parser and mvdan/sh ports are large, and
 * they throw on the half-finished scripts that YAML manifests hold. This one is a single pass
 * over at most MAX_SCRIPT_CHARS characters, each character read once (quotes and
 * substitutions are scanned forward from where they open, never back), so untrusted text costs
 * time linear in its length.
 */

/** Longest script read; the rest is dropped and the script marked cut. */
export const MAX_SCRIPT_CHARS = 64 * 1024;
/** Most tokens read from one script: a Megatron-LM launch script has about 600. */
export const MAX_TOKENS = 4096;
/** Deepest nesting of `( … )` and `{ …; }` followed; deeper groups are read flat. */
const MAX_GROUP_DEPTH = 32;

export interface Word {
  /** The word with its quotes removed; variables and substitutions as written (`$RANK`). */
  text: string;
  /** The word as written, quotes included. */
  raw: string;
  /** Some part of it was quoted. */
  quoted: boolean;
  /** It holds an expansion a shell would substitute: `$X`, `${X}`, `$(…)` or backticks. */
  expands: boolean;
}

export type Operator = '&&' | '||' | ';' | '&' | '|' | '|&' | '(' | ')' | '\n';
export type RedirectOp = '>' | '>>' | '<' | '<<' | '<<-' | '<<<' | '&>' | '&>>' | '>&' | '<&' | '>|' | '<>';

export interface Redirect {
  /** The file descriptor written before the operator (`2>`), when one is. */
  fd?: number;
  op: RedirectOp;
  target?: Word;
  /** The body of a heredoc (`<<EOF … EOF`). */
  heredoc?: string;
}

type Token = { t: 'word'; word: Word } | { t: 'op'; op: Operator } | { t: 'redir'; redir: Redirect };

export interface SimpleCommand {
  kind: 'simple';
  /** `NAME=value` words before the command. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
}

export interface GroupCommand {
  kind: 'group';
  body: Statement[];
  redirects: Redirect[];
}

export type Command = SimpleCommand | GroupCommand;

export interface Pipeline {
  commands: Command[];
  /** `|&` pipes stderr too. */
  ops: Array<'|' | '|&'>;
}

export interface Statement {
  pipeline: Pipeline;
  /** What follows it: `&&`, `||`, `;`, `&` or a newline; undefined for the last. */
  connector?: Exclude<Operator, '|' | '|&' | '(' | ')'>;
}

export interface Script {
  statements: Statement[];
  /** The input was longer than the bounds and its end was not read. */
  cut: boolean;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r';
const isOperatorChar = (c: string): boolean => c === '|' || c === '&' || c === ';' || c === '(' || c === ')' || c === '<' || c === '>' || c === '\n';
/** A run of characters with no meaning to the shell, read in one step (sticky); in words mode operators are ordinary characters. */
const PLAIN_RUN = /[^\s'"\\$`|&;()<>]+/y;
const PLAIN_WORD_RUN = /[^\s'"\\$`]+/y;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Reserved words that open or close a compound command; the commands inside them are what runs. */
const TRANSPARENT_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', 'time', 'esac']);
/** Headers whose words are not a command (`for i in 1 2`, `case $x in`). */
const HEADER_KEYWORDS = new Set(['for', 'case', 'select', 'function']);

class Lexer {
  private pos = 0;
  readonly tokens: Token[] = [];
  private pendingHeredocs: Array<{ redir: Redirect; delimiter: string; stripTabs: boolean }> = [];
  cut: boolean;

  constructor(
    private readonly s: string,
    private readonly operators: boolean,
  ) {
    this.cut = false;
  }

  run(): void {
    const s = this.s;
    while (this.pos < s.length) {
      if (this.tokens.length >= MAX_TOKENS) {
        this.cut = true;
        return;
      }
      const c = s[this.pos];
      if (isSpace(c) || (!this.operators && c === '\n')) {
        this.pos++;
        continue;
      }
      if (this.operators) {
        if (c === '#') {
          const nl = s.indexOf('\n', this.pos);
          this.pos = nl === -1 ? s.length : nl;
          continue;
        }
        if (c === '\\' && s[this.pos + 1] === '\n') {
          this.pos += 2;
          continue;
        }
        if (isOperatorChar(c)) {
          this.operator();
          continue;
        }
      }
      const word = this.word();
      // `2>file`: a word of digits right before a redirection is its file descriptor.
      const next = s[this.pos];
      if (this.operators && (next === '>' || next === '<') && /^\d{1,4}$/.test(word.raw)) {
        this.operator(Number(word.raw));
        continue;
      }
      this.tokens.push({ t: 'word', word });
    }
  }

  private operator(fd?: number): void {
    const s = this.s;
    const c = s[this.pos];
    const two = s.slice(this.pos, this.pos + 2);
    const three = s.slice(this.pos, this.pos + 3);
    let redirOp: RedirectOp | undefined;
    if (three === '&>>') redirOp = '&>>';
    else if (three === '<<-') redirOp = '<<-';
    else if (three === '<<<') redirOp = '<<<';
    else if (two === '&>') redirOp = '&>';
    else if (two === '>>') redirOp = '>>';
    else if (two === '<<') redirOp = '<<';
    else if (two === '>&') redirOp = '>&';
    else if (two === '<&') redirOp = '<&';
    else if (two === '>|') redirOp = '>|';
    else if (two === '<>') redirOp = '<>';
    else if (c === '>' || c === '<') redirOp = c;
    if (redirOp) {
      this.pos += redirOp.length;
      this.redirect(redirOp, fd);
      return;
    }
    let op: Operator;
    if (two === '&&' || two === '||' || two === '|&') op = two;
    else op = c as Operator;
    this.pos += op.length;
    this.tokens.push({ t: 'op', op });
    if (op === '\n' && this.pendingHeredocs.length) this.heredocBodies();
  }

  private redirect(op: RedirectOp, fd: number | undefined): void {
    while (this.pos < this.s.length && isSpace(this.s[this.pos])) this.pos++;
    const redir: Redirect = { op, ...(fd !== undefined && { fd }) };
    if (this.pos < this.s.length && !isOperatorChar(this.s[this.pos])) {
      redir.target = this.word();
      if (op === '<<' || op === '<<-') this.pendingHeredocs.push({ redir, delimiter: redir.target.text, stripTabs: op === '<<-' });
    }
    this.tokens.push({ t: 'redir', redir });
  }

  /** Heredoc bodies start after the newline that ends their command, in the order they were opened. */
  private heredocBodies(): void {
    const s = this.s;
    for (const pending of this.pendingHeredocs) {
      const lines: string[] = [];
      while (this.pos < s.length) {
        const nl = s.indexOf('\n', this.pos);
        const end = nl === -1 ? s.length : nl;
        let line = s.slice(this.pos, end);
        this.pos = nl === -1 ? s.length : nl + 1;
        if (pending.stripTabs) line = line.replace(/^\t{1,256}/, '');
        if (line.trimEnd() === pending.delimiter) break;
        lines.push(line);
      }
      pending.redir.heredoc = lines.join('\n');
    }
    this.pendingHeredocs = [];
  }

  private word(): Word {
    const s = this.s;
    const start = this.pos;
    let text = '';
    let quoted = false;
    let expands = false;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (isSpace(c) || c === '\n' || (this.operators && isOperatorChar(c))) break;
      if (c === "'") {
        quoted = true;
        const close = s.indexOf("'", this.pos + 1);
        const end = close === -1 ? s.length : close;
        text += s.slice(this.pos + 1, end);
        this.pos = close === -1 ? s.length : close + 1;
      } else if (c === '"') {
        quoted = true;
        this.pos++;
        while (this.pos < s.length && s[this.pos] !== '"') {
          const d = s[this.pos];
          if (d === '\\' && this.pos + 1 < s.length && '$`"\\\n'.includes(s[this.pos + 1])) {
            if (s[this.pos + 1] !== '\n') text += s[this.pos + 1];
            this.pos += 2;
          } else if (d === '$' || d === '`') {
            expands = this.expansion(d, (piece) => (text += piece)) || expands;
          } else {
            text += d;
            this.pos++;
          }
        }
        this.pos++;
      } else if (c === '\\') {
        if (this.pos + 1 < s.length && s[this.pos + 1] !== '\n') text += s[this.pos + 1];
        this.pos += 2;
      } else if (c === '$' && s[this.pos + 1] === "'") {
        quoted = true;
        this.pos += 2;
        while (this.pos < s.length && s[this.pos] !== "'") {
          if (s[this.pos] === '\\' && this.pos + 1 < s.length) {
            text += s[this.pos + 1];
            this.pos += 2;
          } else text += s[this.pos++];
        }
        this.pos++;
      } else if (c === '$' || c === '`') {
        expands = this.expansion(c, (piece) => (text += piece)) || expands;
      } else {
        const plain = this.operators ? PLAIN_RUN : PLAIN_WORD_RUN;
        plain.lastIndex = this.pos;
        const end = plain.exec(s) ? plain.lastIndex : this.pos + 1;
        text += s.slice(this.pos, end);
        this.pos = end;
      }
    }
    return { text, raw: s.slice(start, Math.min(this.pos, s.length)), quoted, expands };
  }

  /**
   * An expansion at pos, appended as written: `$NAME`, `$1`, `${…}`, `$(…)`, `` `…` ``.
   * Substitutions are scanned forward to their close, counting nesting; unclosed ones run to
   * the end of the input. Answers whether it was one (a lone `$` is a character).
   */
  private expansion(c: string, append: (piece: string) => void): boolean {
    const s = this.s;
    const start = this.pos;
    if (c === '`') {
      let i = this.pos + 1;
      while (i < s.length && s[i] !== '`') i += s[i] === '\\' ? 2 : 1;
      this.pos = Math.min(i + 1, s.length);
      append(s.slice(start, this.pos));
      return true;
    }
    const next = s[this.pos + 1];
    if (next === '(' || next === '{') {
      const open = next;
      const close = open === '(' ? ')' : '}';
      let depth = 0;
      let i = this.pos + 1;
      for (; i < s.length; i++) {
        const d = s[i];
        if (d === "'" && open === '(') {
          const q = s.indexOf("'", i + 1);
          i = q === -1 ? s.length : q;
        } else if (d === '\\') i++;
        else if (d === open) depth++;
        else if (d === close && --depth === 0) break;
      }
      this.pos = Math.min(i + 1, s.length);
      append(s.slice(start, this.pos));
      return true;
    }
    if (next !== undefined && (NAME_START.test(next) || /[0-9@*#?$!-]/.test(next))) {
      let i = this.pos + 2;
      if (NAME_START.test(next)) while (i < s.length && NAME_CHAR.test(s[i])) i++;
      this.pos = i;
      append(s.slice(start, i));
      return true;
    }
    this.pos++;
    append('$');
    return false;
  }
}

/**
 * Splits text into words the way a shell would, quotes removed, with no operators: how an
 * exec-style command line such as Run:ai's `arguments` string becomes argv.
 */
export function splitWords(text: string): { words: Word[]; cut: boolean } {
  const bounded = text.length > MAX_SCRIPT_CHARS ? text.slice(0, MAX_SCRIPT_CHARS) : text;
  const lexer = new Lexer(bounded, false);
  lexer.run();
  return { words: lexer.tokens.flatMap((t) => (t.t === 'word' ? [t.word] : [])), cut: lexer.cut || bounded.length < text.length };
}

/** Parses a shell script (the string after `sh -c`, a heredoc given to a shell). */
export function parseScript(text: string): Script {
  const bounded = text.length > MAX_SCRIPT_CHARS ? text.slice(0, MAX_SCRIPT_CHARS) : text;
  const lexer = new Lexer(bounded, true);
  lexer.run();
  const parser = new Parser(lexer.tokens);
  return { statements: parser.list(null, 0), cut: lexer.cut || bounded.length < text.length };
}

/** The tokens of a script as text, in order: words as written and operators, for diffs. */
export function scriptTokens(text: string): string[] {
  const bounded = text.length > MAX_SCRIPT_CHARS ? text.slice(0, MAX_SCRIPT_CHARS) : text;
  const lexer = new Lexer(bounded, true);
  lexer.run();
  return lexer.tokens.flatMap((t) => {
    if (t.t === 'word') return [t.word.raw];
    if (t.t === 'op') return t.op === '\n' ? [] : [t.op];
    const r = t.redir;
    return [`${r.fd ?? ''}${r.op}${r.target ? r.target.raw : ''}`];
  });
}

class Parser {
  private i = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isWord(token: Token | undefined, text: string): boolean {
    return token?.t === 'word' && !token.word.quoted && token.word.text === text;
  }

  list(stop: ')' | '}' | null, depth: number): Statement[] {
    const out: Statement[] = [];
    while (this.i < this.tokens.length) {
      const token = this.peek()!;
      if (token.t === 'op' && (token.op === ';' || token.op === '\n' || token.op === '&' || token.op === '&&' || token.op === '||')) {
        this.i++;
        continue;
      }
      if (stop === ')' && token.t === 'op' && token.op === ')') return out;
      if (stop === '}' && this.isWord(token, '}')) return out;
      if (token.t === 'op' && token.op === ')') {
        // Unmatched (a `case` pattern, a cut script): not a command.
        this.i++;
        continue;
      }
      const pipeline = this.pipeline(stop, depth);
      const next = this.peek();
      const connector = next?.t === 'op' && next.op !== '(' && next.op !== ')' && next.op !== '|' && next.op !== '|&' ? next.op : undefined;
      if (connector) this.i++;
      if (pipeline.commands.length) out.push({ pipeline, ...(connector && { connector }) });
    }
    return out;
  }

  private pipeline(stop: ')' | '}' | null, depth: number): Pipeline {
    const commands: Command[] = [];
    const ops: Array<'|' | '|&'> = [];
    for (;;) {
      const command = this.command(stop, depth);
      if (command) commands.push(command);
      const next = this.peek();
      if (next?.t === 'op' && (next.op === '|' || next.op === '|&')) {
        ops.push(next.op);
        this.i++;
        continue;
      }
      break;
    }
    return { commands, ops: ops.slice(0, Math.max(0, commands.length - 1)) };
  }

  private command(stop: ')' | '}' | null, depth: number): Command | undefined {
    const first = this.peek();
    if (first?.t === 'op' && first.op === '(' && depth < MAX_GROUP_DEPTH) {
      this.i++;
      const body = this.list(')', depth + 1);
      if (this.peek()?.t === 'op') this.i++;
      return { kind: 'group', body, redirects: this.trailingRedirects() };
    }
    if (first?.t === 'op' && first.op === '(') this.i++;
    if (this.isWord(first, '{') && depth < MAX_GROUP_DEPTH) {
      this.i++;
      const body = this.list('}', depth + 1);
      if (this.isWord(this.peek(), '}')) this.i++;
      return { kind: 'group', body, redirects: this.trailingRedirects() };
    }
    const assignments: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    let header = false;
    while (this.i < this.tokens.length) {
      const token = this.peek()!;
      if (token.t === 'op') break;
      if (token.t === 'redir') {
        redirects.push(token.redir);
        this.i++;
        continue;
      }
      const w = token.word;
      if (!words.length && !assignments.length) {
        if (stop === '}' && this.isWord(token, '}')) break;
        if (!w.quoted && TRANSPARENT_KEYWORDS.has(w.text)) {
          this.i++;
          continue;
        }
        if (!w.quoted && HEADER_KEYWORDS.has(w.text)) header = true;
      }
      if (!words.length && isAssignment(w)) assignments.push(w);
      else words.push(w);
      this.i++;
    }
    if (header) return undefined;
    if (!words.length && !assignments.length && !redirects.length) return undefined;
    return { kind: 'simple', assignments, words, redirects };
  }

  private trailingRedirects(): Redirect[] {
    const out: Redirect[] = [];
    while (this.peek()?.t === 'redir') out.push((this.tokens[this.i++] as { redir: Redirect }).redir);
    return out;
  }
}

/** `NAME=value` as written, the name unquoted. */
export function isAssignment(w: Word): boolean {
  const eq = w.raw.indexOf('=');
  if (eq <= 0 || eq > 128) return false;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.raw.slice(0, eq));
}

/** The name of an assignment word (`PYTHONUNBUFFERED=1` → PYTHONUNBUFFERED). */
export function assignmentName(w: Word): string {
  return w.raw.slice(0, w.raw.indexOf('='));
}

/** A command as a person would quote it: its words as written, bounded. */
export function commandText(command: SimpleCommand, max = 300): string {
  let out = '';
  for (const w of [...command.assignments, ...command.words]) {
    out += (out ? ' ' : '') + w.raw;
    if (out.length > max) return `${out.slice(0, max - 1)}…`;
  }
  return out;
}
