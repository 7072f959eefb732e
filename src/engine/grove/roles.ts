// kept until the constructs and tests move; internal
export * from './clique-roles';
