/**
 * The company's reference lists as other modules check them (a job's or a pole's utility, a
 * permit's type): the statements are in reference.repository.ts; this service is the reference
 * module's door for the modules above it (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */
export { findUtility, permitTypeExists } from './reference.repository';
