import { Program } from './code';

export function printPython(_program: Program): string {
  throw new Error('todo');
}
