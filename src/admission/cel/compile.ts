/**
 * Compiling CRD CEL expressions (rules and message expressions) once, with the Kubernetes CEL
 * environment: the standard library, the `strings` extension (`lowerAscii`, `split`, ...) and the
 * optional-type methods (`hasValue`). Variables: `self` and `oldSelf`. The rules of the library's
 * CRD schemas were parsed at build time (`prebuiltParse`); any other text is parsed here.
 *
 * The engine resolves functions and variables only when it evaluates, so compiling also walks the
 * syntax tree and rejects unknown functions and undeclared variables, as the API server's type
 * check would when the CRD is installed.
 *
 * Internal module.
 */
import type { CelEnv, CelInput, CelResult, parse as celParse } from '@bufbuild/cel';
import { optionalFunctions } from './optional';
import { cel, celExt } from '../engines';

/** The variables of a CRD rule. */
export interface CelBindings {
  readonly self: CelInput;
  readonly oldSelf?: CelInput;
}

/** A compiled expression. */
export interface CompiledExpression {
  /** Evaluates the expression; never throws (engine errors are returned). */
  readonly evaluate: (bindings: CelBindings) => CelResult;
  /** The expression reads `oldSelf` (a transition rule). */
  readonly usesOldSelf: boolean;
  /**
   * The fields of `self` the expression reads, when it reads `self` only through field selections
   * (`self.x`, `has(self.x)`, `self.x.y`, ...): its result depends on `self` through these fields
   * alone (present or absent, and their values). Undefined when it uses `self` otherwise (as a
   * whole, indexed, iterated, or through a field whose CEL name is escaped).
   */
  readonly selfFields?: readonly string[];
}

/** An expression that does not compile, with the reason. */
export interface CompileError {
  readonly error: string;
}

let environment: CelEnv | undefined;
let knownFunctions: ReadonlySet<string> | undefined;

/** The CEL environment: the standard library, the `strings` extension and `hasValue()` (built once, on first use). */
function env(): CelEnv {
  return environment ??= cel().celEnv({ funcs: [...celExt().strings, ...optionalFunctions()] });
}

/** Operators the engine's planner implements itself rather than as library functions. */
const PLANNER_OPERATORS = ['_&&_', '_||_', '_?_:_', '_[_]', '@not_strictly_false'];

/** Function names the environment implements, and the planner's own operators. */
function knownFunctionNames(): ReadonlySet<string> {
  return knownFunctions ??= new Set([...[...env().funcs].map((f) => f.name), ...PLANNER_OPERATORS]);
}

const VARIABLES = ['self', 'oldSelf'];

/** Type names, usable as values (`type(x) == int`). */
const TYPE_NAMES = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn'];

type ParsedExpr = ReturnType<typeof celParse>['expr'];

interface Usage {
  readonly unknownFunctions: Set<string>;
  readonly unknownVariables: Set<string>;
  usesOldSelf: boolean;
  /** Fields of `self` selected (see `CompiledExpression.selfFields`). */
  readonly selfFields: Set<string>;
  /** `self` is used other than through a field selection. */
  selfWhole: boolean;
}

/**
 * A CEL field name that is the JSON field name as it is: Kubernetes escapes a field name that is
 * not a CEL identifier or is a CEL keyword into one holding `__` (`__dash__`, `__namespace__`, ...).
 */
function isPlainFieldName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.includes('__');
}

/** Collects the functions and variables an expression uses, with comprehension variables in scope. */
function collectUsage(expr: ParsedExpr | undefined, scope: readonly string[], usage: Usage): void {
  if (expr === undefined) return;
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'identExpr':
      if (kind.value.name === 'oldSelf' && !scope.includes('oldSelf')) usage.usesOldSelf = true;
      if (kind.value.name === 'self' && !scope.includes('self')) usage.selfWhole = true;
      if (!scope.includes(kind.value.name) && !VARIABLES.includes(kind.value.name) && !TYPE_NAMES.includes(kind.value.name)) {
        usage.unknownVariables.add(kind.value.name);
      }
      return;
    case 'selectExpr': {
      const operand = kind.value.operand?.exprKind;
      if (operand?.case === 'identExpr' && operand.value.name === 'self' && !scope.includes('self') && isPlainFieldName(kind.value.field)) {
        usage.selfFields.add(kind.value.field);
        return;
      }
      collectUsage(kind.value.operand, scope, usage);
      return;
    }
    case 'callExpr':
      if (!knownFunctionNames().has(kind.value.function)) usage.unknownFunctions.add(kind.value.function);
      collectUsage(kind.value.target, scope, usage);
      for (const arg of kind.value.args) collectUsage(arg, scope, usage);
      return;
    case 'listExpr':
      for (const element of kind.value.elements) collectUsage(element, scope, usage);
      return;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === 'mapKey') collectUsage(entry.keyKind.value, scope, usage);
        collectUsage(entry.value, scope, usage);
      }
      return;
    case 'comprehensionExpr': {
      const c = kind.value;
      collectUsage(c.iterRange, scope, usage);
      collectUsage(c.accuInit, scope, usage);
      const inner = [...scope, c.accuVar, c.iterVar, ...(c.iterVar2 === '' ? [] : [c.iterVar2])];
      collectUsage(c.loopCondition, inner, usage);
      collectUsage(c.loopStep, inner, usage);
      collectUsage(c.result, [...scope, c.accuVar], usage);
      return;
    }
    default:
      return;
  }
}

type Parsed = ReturnType<typeof celParse>;

let prebuilt: Readonly<Record<string, () => Parsed>> | null | undefined;

/**
 * The parse of a rule of the library's CRD schemas, made at build time (generated/parsed.js, by
 * scripts/generate-cel-parses.ts, from the same @bufbuild/cel), if the build parsed this text.
 */
export function prebuiltParse(source: string): Parsed | undefined {
  const parses = prebuiltParses();
  return parses !== null && Object.prototype.hasOwnProperty.call(parses, source) ? parses[source]() : undefined;
}

/** The rule texts the build parsed (empty in a copy of the sources without the generated parses). */
export function prebuiltTexts(): string[] {
  return Object.keys(prebuiltParses() ?? {});
}

function prebuiltParses(): Readonly<Record<string, () => Parsed>> | null {
  if (prebuilt === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      prebuilt = (require('./generated/parsed.js') as { parsed: Readonly<Record<string, () => Parsed>> }).parsed;
    } catch {
      prebuilt = null; // not generated (a copy of the sources without it): every rule is parsed here
    }
  }
  return prebuilt;
}

const CACHE = new Map<string, CompiledExpression | CompileError>();

/** Compiles an expression, once per distinct text. */
export function compileExpression(source: string): CompiledExpression | CompileError {
  let compiled = CACHE.get(source);
  if (compiled === undefined) {
    compiled = compileUncached(source);
    CACHE.set(source, compiled);
  }
  return compiled;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function compileUncached(source: string): CompiledExpression | CompileError {
  let parsed: Parsed;
  try {
    parsed = prebuiltParse(source) ?? cel().parse(source);
  } catch (error) {
    return { error: `syntax error: ${describe(error)}` };
  }
  const usage: Usage = { unknownFunctions: new Set(), unknownVariables: new Set(), usesOldSelf: false, selfFields: new Set(), selfWhole: false };
  collectUsage(parsed.expr, [], usage);
  if (usage.unknownFunctions.size > 0) {
    return { error: `undeclared function(s): ${[...usage.unknownFunctions].sort().join(', ')}` };
  }
  if (usage.unknownVariables.size > 0) {
    return { error: `undeclared reference(s): ${[...usage.unknownVariables].sort().join(', ')}` };
  }
  let program: (bindings: Record<string, CelInput>) => CelResult;
  try {
    program = cel().plan(env(), parsed) as (bindings: Record<string, CelInput>) => CelResult;
  } catch (error) {
    return { error: describe(error) };
  }
  const evaluate = (bindings: CelBindings): CelResult => {
    try {
      const vars: Record<string, CelInput> = { self: bindings.self };
      if (bindings.oldSelf !== undefined) vars.oldSelf = bindings.oldSelf;
      return program(vars);
    } catch (error) {
      return cel().celError(describe(error));
    }
  };
  return { evaluate, usesOldSelf: usage.usesOldSelf, selfFields: usage.selfWhole ? undefined : [...usage.selfFields].sort() };
}

/** Whether a compile result is an error. */
export function isCompileError(compiled: CompiledExpression | CompileError): compiled is CompileError {
  return 'error' in compiled;
}
