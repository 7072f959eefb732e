import { Program } from './code';

export function printGo(_program: Program): string {
  throw new Error('todo');
}
