/**
 * CEL optional values (`optional_type`), as far as the Kubernetes CRD rules need them: `oldSelf` of
 * a rule with `optionalOldSelf: true` is `optional.none()` on create and `optional.of(old)` on
 * update, and the rule asks `oldSelf.hasValue()`.
 *
 * The CEL engine has no optional type, so an optional is an opaque empty CEL map whose identity
 * carries the optional's content; only the methods below can see inside it.
 *
 * Internal module.
 */
import type { CelInput, CelMap, CelValue } from '@bufbuild/cel';
import { cel } from '../engines';

interface OptionalContent {
  readonly present: boolean;
  readonly value?: CelInput;
}

const OPTIONALS = new WeakMap<object, OptionalContent>();

function makeOptional(content: OptionalContent): CelMap {
  const handle = cel().celMap(new Map());
  OPTIONALS.set(handle, content);
  return handle;
}

/** `optional.none()`. */
export function optionalNone(): CelMap {
  return makeOptional({ present: false });
}

/** `optional.of(value)`. */
export function optionalOf(value: CelInput): CelMap {
  return makeOptional({ present: true, value });
}

function contentOf(target: CelValue): OptionalContent {
  const content = typeof target === 'object' && target !== null ? OPTIONALS.get(target) : undefined;
  if (content === undefined) throw new Error('no such overload: hasValue() applies to optional values only');
  return content;
}

/** The optional-type methods the CRD rules use: `hasValue()` (built when the CEL engine is first needed). */
export function optionalFunctions(): Array<ReturnType<CelMethodFactory>> {
  const { celMethod, CelScalar } = cel();
  return [
    celMethod('hasValue', CelScalar.DYN, [], CelScalar.BOOL, function hasValue(this: CelValue): boolean {
      return contentOf(this).present;
    }),
  ];
}

type CelMethodFactory = ReturnType<typeof cel>['celMethod'];
