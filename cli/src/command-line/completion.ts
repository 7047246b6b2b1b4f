import { globalOptions, type Command, type OptionSpec, type Program } from './command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * The command tree as completion needs it: for each node (`''` for the program itself, then
 * `payment-intents`, `payment-intents create` …) the words that may follow it and, for a command,
 * its own options. Derived from the program's commands, so a new command completes without
 * touching this file.
 */
interface Tree {
  /** Node → the next words, with what each names. */
  children: Map<string, Map<string, string>>;
  /** Command → its options (without the global ones). */
  options: Map<string, Record<string, OptionSpec>>;
  global: Record<string, OptionSpec>;
}

function tree(program: Program<Command<never>>): Tree {
  const children = new Map<string, Map<string, string>>();
  const options = new Map<string, Record<string, OptionSpec>>();
  for (const command of program.commands) {
    const words = command.name.split(' ');
    words.forEach((word, index) => {
      const parent = words.slice(0, index).join(' ');
      const node = words.slice(0, index + 1).join(' ');
      const next = children.get(parent) ?? new Map<string, string>();
      children.set(parent, next);
      // A group is described by the commands under it; a command by its summary.
      const description = node === command.name ? command.summary : `${node} commands`;
      if (!next.has(word) || node === command.name) next.set(word, description);
    });
    options.set(command.name, command.options ?? {});
  }
  return { children, options, global: globalOptions(program) };
}

/** Every node of the tree: the command words a completion walks through. */
function nodes(t: Tree): string[] {
  return [...new Set([...t.children.keys(), ...t.options.keys()])].filter((node) => node !== '').sort();
}

function flags(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);
}

/** Options that take a value: the word after one is its value, not a command word. */
function valueFlags(t: Tree): string[] {
  const all = [t.global, ...t.options.values()].flatMap((options) => Object.entries(options).filter(([, spec]) => spec.type === 'string'));
  return [...new Set(all.map(([name]) => `--${name}`))].sort();
}

/** The completion script of `shell` for the program's command tree. */
export function completionScript(program: Program<Command<never>>, shell: Shell): string {
  const t = tree(program);
  switch (shell) {
    case 'bash':
      return bashScript(program.name, t);
    case 'zsh':
      return zshScript(program.name, t);
    case 'fish':
      return fishScript(program.name, t);
  }
}

/** A shell function name made of the program's name. */
const functionName = (name: string) => `_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** Single-quoted for bash and zsh. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function bashScript(name: string, t: Tree): string {
  const fn = `${functionName(name)}_complete`;
  const caseArms = (entries: Array<[string, string[]]>) => entries.map(([node, words]) => `    ${quote(node)}) candidates=${quote(words.join(' '))} ;;`);
  return [
    `# bash completion for ${name}, generated from its commands by \`${name} completion bash\`.`,
    `# This shell only:  source <(${name} completion bash)`,
    `# Every new shell:  ${name} completion bash > ~/.local/share/bash-completion/completions/${name}`,
    `${fn}() {`,
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= word i candidates=',
    '  # The command words typed so far: each known node extends the path; arguments and values do not.',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    word=${COMP_WORDS[i]}',
    '    case "${cmd:+$cmd }$word" in',
    `      ${nodes(t).map(quote).join('|')}) cmd="\${cmd:+$cmd }$word" ;;`,
    '    esac',
    '  done',
    '  # After an option that takes a value: no words to offer (the shell falls back to file names).',
    ...(valueFlags(t).length ? [`  case "$prev" in ${valueFlags(t).join('|')}) return ;; esac`] : []),
    '  if [[ $cur == -* ]]; then',
    '    case "$cmd" in',
    ...caseArms([...t.options].map(([command, options]) => [command, flags(options)])),
    '    esac',
    `    candidates="$candidates ${flags(t.global).join(' ')}"`,
    '  else',
    '    case "$cmd" in',
    ...caseArms([...t.children].map(([node, next]) => [node, [...next.keys()]])),
    '    esac',
    '  fi',
    '  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))',
    '}',
    `complete -o default -F ${fn} ${name}`,
    '',
  ].join('\n');
}

function zshScript(name: string, t: Tree): string {
  const fn = functionName(name);
  // _describe takes `word:description`; a colon in the word itself would need escaping, and none has one.
  const items = (entries: Array<[string, string]>) => entries.map(([word, description]) => quote(`${word}:${description}`)).join(' ');
  const optionItems = (options: Record<string, OptionSpec>) => items(Object.entries(options).map(([option, spec]) => [`--${option}`, spec.description]));
  return [
    `#compdef ${name}`,
    `# zsh completion for ${name}, generated from its commands by \`${name} completion zsh\`.`,
    `# This shell only (after compinit):  source <(${name} completion zsh)`,
    `# Every new shell:  ${name} completion zsh > "\${fpath[1]}/_${name}"`,
    `${fn}() {`,
    '  local cmd= word i',
    '  local -a candidates',
    '  for ((i = 2; i < CURRENT; i++)); do',
    '    word=${words[i]}',
    '    case "${cmd:+$cmd }$word" in',
    `      (${nodes(t).map(quote).join('|')}) cmd="\${cmd:+$cmd }$word" ;;`,
    '    esac',
    '  done',
    ...(valueFlags(t).length ? [`  case "\${words[CURRENT-1]}" in (${valueFlags(t).join('|')}) _files; return ;; esac`] : []),
    '  if [[ ${words[CURRENT]} == -* ]]; then',
    '    case "$cmd" in',
    ...[...t.options].map(([command, options]) => `      (${quote(command)}) candidates=(${optionItems(options)}) ;;`),
    '    esac',
    `    candidates+=(${optionItems(t.global)})`,
    '    _describe -t options option candidates',
    '  else',
    '    case "$cmd" in',
    ...[...t.children].map(([node, next]) => `      (${quote(node)}) candidates=(${items([...next])}) ;;`),
    '      (*) _files; return ;;',
    '    esac',
    '    _describe -t commands command candidates',
    '  fi',
    '}',
    // Autoloaded from $fpath the file is the function's body; sourced, it registers the function.
    `if [[ \${funcstack[1]} == ${fn} ]]; then ${fn} "$@"; else compdef ${fn} ${name}; fi`,
    '',
  ].join('\n');
}

function fishScript(name: string, t: Tree): string {
  const fn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const text = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const option = (condition: string | undefined, option: string, spec: OptionSpec) =>
    [
      `complete -c ${name}`,
      ...(condition === undefined ? [] : [`-n ${text(`${fn}_at ${text(condition)}`)}`]),
      `-l ${option}`,
      ...(spec.short ? [`-s ${spec.short}`] : []),
      // A value is required; file names are offered only for a path.
      ...(spec.type === 'string' ? [spec.valueName === 'path' ? '-rF' : '-r'] : []),
      `-d ${text(spec.description)}`,
    ].join(' ');
  return [
    `# fish completion for ${name}, generated from its commands by \`${name} completion fish\`.`,
    `# This shell only:  ${name} completion fish | source`,
    `# Every new shell:  ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    `set -g ${fn}_nodes ${nodes(t).map(text).join(' ')}`,
    '# The command words typed so far: each known node extends the path; arguments and values do not.',
    `function ${fn}_command`,
    '    set -l cmd',
    '    for word in (commandline -opc)[2..-1]',
    `        set -l next (string join ' ' -- $cmd $word)`,
    `        contains -- $next $${fn}_nodes; and set cmd $cmd $word`,
    '    end',
    `    string join ' ' -- $cmd`,
    'end',
    `function ${fn}_at`,
    `    set -l cmd (${fn}_command)`,
    '    test "$cmd" = "$argv[1]"',
    'end',
    // No file names by default: arguments are ids; options that take a path say so below.
    `complete -c ${name} -f`,
    ...[...t.children].flatMap(([node, next]) =>
      [...next].map(([word, description]) => `complete -c ${name} -n ${text(`${fn}_at ${text(node)}`)} -a ${text(word)} -d ${text(description)}`),
    ),
    ...[...t.options].flatMap(([command, options]) => Object.entries(options).map(([flag, spec]) => option(command, flag, spec))),
    ...Object.entries(t.global).map(([flag, spec]) => option(undefined, flag, spec)),
    '',
  ].join('\n');
}
