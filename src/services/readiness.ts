/**
 * Moved to runner/readiness.ts (a pre-flight is part of preparing an attempt). This re-export
 * stays only until services/consult-views.ts and setup/detect.ts import it from there.
 */
export { clearReadinessCache, interpretReadiness, readinessOf } from "../runner/readiness.ts";
