/** The workflow feature's face to the job runner: one step as a durable job. */
export { executeStep, type StepJobOutcome, type StepJobRequest } from "./run.ts";
