/**
 * Line layout shared by the printers: an expression on one line when it fits, otherwise its
 * bracketed groups opened one entry per line (the last argument of a call kept on the call's line
 * when it is itself a group, as a person writes `f("id", {` ... `})`), a builder chain one call per
 * line.
 */

/** A piece of printed code. */
export type Doc =
  | string
  /** Pieces one after the other; when too long, all but the last stay on one line. */
  | { readonly kind: 'seq'; readonly parts: readonly Doc[] }
  /**
   * `open item, item close`: when too long, one item per line, indented (`hug`: the items but the
   * last stay on the first line when the last is a group, which opens instead).
   */
  | {
    readonly kind: 'group';
    readonly open: string;
    readonly close: string;
    readonly items: readonly Doc[];
    /** Spaces inside the brackets on one line (`{ a }`). */
    readonly pad?: boolean;
    /** `always`, or `simple`: only when the items before the last are plain words (`chart, "id"`), no calls. */
    readonly hug?: 'always' | 'simple';
    /** A comma after the last item when one item is written per line. */
    readonly trailing: boolean;
  }
  /** `head.link().link()`: when too long, each link on a line of its own, indented twice. */
  | { readonly kind: 'chain'; readonly head: Doc; readonly links: readonly Doc[] };

/** How a language lays code out. */
export interface Style {
  readonly width: number;
  readonly indent: string;
}

export function seq(...parts: Doc[]): Doc {
  return { kind: 'seq', parts };
}

/** The piece on one line. */
export function flat(doc: Doc): string {
  if (typeof doc === 'string') return doc;
  switch (doc.kind) {
    case 'seq': return doc.parts.map(flat).join('');
    case 'group': {
      if (doc.items.length === 0) return `${doc.open}${doc.close}`;
      const pad = doc.pad ? ' ' : '';
      return `${doc.open}${pad}${doc.items.map(flat).join(', ')}${pad}${doc.close}`;
    }
    case 'chain': return `${flat(doc.head)}${doc.links.map(flat).join('')}`;
  }
}

/** Columns of an indentation (a tab counts 4). */
function columns(indent: string): number {
  return indent.replace(/\t/g, '    ').length;
}

/** The piece printed at `indent` (the indentation of the line it starts on), `used` characters of that line already written after it. */
export function layout(doc: Doc, style: Style, indent = '', used = 0): string {
  const one = flat(doc);
  if (!one.includes('\n') && columns(indent) + used + one.length <= style.width) return one;
  if (typeof doc === 'string') return doc;
  const inner = indent + style.indent;
  switch (doc.kind) {
    case 'seq': {
      const head = doc.parts.slice(0, -1).map(flat).join('');
      const last = doc.parts[doc.parts.length - 1];
      return last === undefined ? head : `${head}${layout(last, style, indent, used + head.length)}`;
    }
    case 'group': {
      if (doc.items.length === 0) return `${doc.open}${doc.close}`;
      const last = doc.items[doc.items.length - 1];
      const head = doc.items.slice(0, -1).map(item => `${flat(item)}, `).join('');
      // Go's pointers to plain values (`jsii.String("id")`) count as words
      const words = head.replace(/jsii\.(String|Number|Bool)\([^()]*\)/g, 'x');
      const simple = words.length <= 40 && !/[([{]/.test(words);
      if ((doc.hug === 'always' || (doc.hug === 'simple' && simple)) && typeof last !== 'string' && last.kind !== 'seq') {
        const start = `${doc.open}${head}`;
        return `${start}${layout(last, style, indent, used + start.length)}${doc.close}`;
      }
      const lines = doc.items.map((item, i) => `${inner}${layout(item, style, inner)}${doc.trailing || i < doc.items.length - 1 ? ',' : ''}\n`);
      return `${doc.open}\n${lines.join('')}${indent}${doc.close}`;
    }
    case 'chain': {
      const deeper = inner + style.indent;
      return `${layout(doc.head, style, indent, used)}${doc.links.map(link => `\n${deeper}${layout(link, style, deeper)}`).join('')}`;
    }
  }
}
