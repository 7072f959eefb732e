/** Provider-neutral building blocks of multinode rendering (docs/design/render-multinode.md §2). */
export * from './roles';
export * from './deployer';
export * from './gpu-count';
export * from './flag-injection';
