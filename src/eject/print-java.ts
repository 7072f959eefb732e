import { Program } from './code';

export function printJava(_program: Program): string {
  throw new Error('todo');
}
