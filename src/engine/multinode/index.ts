/** Provider-neutral building blocks of multinode rendering (render-multinode §2). */
export * from './roles';
export * from './deployer';
export * from './gpu-count';
export * from './flag-injection';
